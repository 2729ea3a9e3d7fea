package io.kgrag.core.qafd.embedded;

import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.ClosedClassWords;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.QueryGraphExtractor;
import io.kgrag.core.qafd.Keywords;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Keywords without an LLM, from the mentions and phrases of a query graph (the question understanding's: a chain
 * whose edges name the graph's relations, or the understanding's star): every mentioned entity's label is a
 * low-level keyword; the unknown's type word ("sport", "person") and the content words of each edge's phrase
 * ("appear", "direct", "starred actors") are high-level keywords (closed-class English words are not content).
 * Also returns the query graph itself, whose unknown and its connections restrict the answers and whose named
 * relations weigh the diffusion.
 */
public final class EmbeddedKeywordExtractor {
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
        if (!w.isEmpty() && !ClosedClassWords.contains(w)) {
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
