package io.kgrag.core.exemplar;

import java.util.List;

/**
 * A question reduced to what chain induction needs: its topic mention and its gold answers, both as
 * entity labels of the knowledge graph.
 *
 * @param topic the label of the entity the question starts from (MetaQA's bracketed mention)
 * @param answers the gold answers' labels (order kept, copied)
 */
public record LabelledQuestion(String topic, List<String> answers) {
  public LabelledQuestion {
    if (topic == null) {
      throw new IllegalArgumentException("topic is null");
    }
    answers = List.copyOf(answers);
  }
}
