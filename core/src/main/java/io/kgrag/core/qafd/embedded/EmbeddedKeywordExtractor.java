package io.kgrag.core.qafd.embedded;

import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.QueryGraphExtractor;
import io.kgrag.core.qafd.Keywords;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Keywords without an LLM, from the mentions and phrases the embedded query-graph extractor finds: every
 * mentioned entity's label is a low-level keyword; the unknown's type word ("sport", "person") and the
 * content words of each mention's relation phrase ("appear", "direct") are high-level keywords. Also returns
 * the query graph itself, whose unknown and its connections restrict the answers.
 */
public final class EmbeddedKeywordExtractor {
  private static final Set<String> STOP =
      Set.of(
          "which", "what", "who", "whom", "whose", "where", "when", "how", "is", "was", "are", "were", "be", "been", "being",
          "the", "a", "an", "and", "or", "of", "in", "on", "to", "for", "by", "with", "from", "as", "at", "has", "have", "had",
          "both", "also", "its", "it", "that", "this", "these", "those", "their", "his", "her", "did", "does", "do", "not",
          "but", "than", "then", "there", "can", "s", "all", "any", "some", "such", "same");

  /** The keywords and the query graph they came from. */
  public record Extraction(Keywords keywords, QueryGraph queryGraph) {}

  private final QueryGraphExtractor extractor;

  public EmbeddedKeywordExtractor(QueryGraphExtractor extractor) {
    this.extractor = extractor;
  }

  /** @throws io.kgrag.core.qa.QaException as the query-graph extractor does (an empty question) */
  public Extraction extract(String question) {
    QueryGraph g = extractor.extract(question);
    List<String> low = new ArrayList<>();
    Set<String> high = new LinkedHashSet<>();
    for (QueryGraph.Node n : g.mentions()) {
      // every mention, even a lower-case single word ("fall" in "what genre does X fall under"): demoting
      // those to themes lost real constraints on ERQA dev ("jazz", "comedy"), Hit@1 64.2 % -> 54.6 %
      low.add(n.label());
    }
    for (QueryGraph.Node n : g.unknowns()) {
      if (n.typeHint() != null && !n.typeHint().isBlank()) {
        high.add(n.typeHint().strip());
      }
    }
    for (QueryGraph.Edge e : g.edges()) {
      if (e.phrase() == null) {
        continue;
      }
      List<String> words = new ArrayList<>();
      for (String w : Labels.normalize(e.phrase()).split(" ")) {
        if (!w.isEmpty() && !STOP.contains(w)) {
          words.add(w);
        }
      }
      if (!words.isEmpty()) {
        high.add(String.join(" ", words));
      }
    }
    return new Extraction(new Keywords(List.copyOf(high), low), g);
  }
}
