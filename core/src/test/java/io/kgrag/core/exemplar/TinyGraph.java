package io.kgrag.core.exemplar;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;

/** Hand-made movie graphs for the exemplar tests: entities are keyed and labelled by their names. */
final class TinyGraph {
  private final KnowledgeGraph.Builder b = KnowledgeGraph.builder();

  TinyGraph edge(String head, String relation, String tail) {
    b.entity(StableIds.entityId(head), head);
    b.entity(StableIds.entityId(tail), tail);
    b.edge(StableIds.entityId(head), relation, StableIds.entityId(tail));
    return this;
  }

  KnowledgeGraph build() {
    return b.build();
  }

  /**
   * A small MetaQA-like graph. Ann directs Alpha and Beta and acts in Beta; Bob writes Alpha and directs
   * Gamma; Ann and Bob write Delta, which Ann directs; Cy acts in Alpha and Beta; Dee in Gamma. Alpha,
   * Beta, Gamma and 200 filler movies came out in 1999 (a hub); Delta in 2001. Beta is a sequel of Alpha.
   */
  static KnowledgeGraph movies() {
    TinyGraph g = new TinyGraph()
        .edge("Alpha", "directed_by", "Ann")
        .edge("Beta", "directed_by", "Ann")
        .edge("Gamma", "directed_by", "Bob")
        .edge("Delta", "directed_by", "Ann")
        .edge("Alpha", "written_by", "Bob")
        .edge("Beta", "written_by", "Ann")
        .edge("Gamma", "written_by", "Eve")
        .edge("Delta", "written_by", "Ann")
        .edge("Delta", "written_by", "Bob")
        .edge("Alpha", "starred_actors", "Cy")
        .edge("Beta", "starred_actors", "Cy")
        .edge("Beta", "starred_actors", "Ann")
        .edge("Gamma", "starred_actors", "Dee")
        .edge("Alpha", "release_year", "1999")
        .edge("Beta", "release_year", "1999")
        .edge("Gamma", "release_year", "1999")
        .edge("Delta", "release_year", "2001")
        .edge("Beta", "sequel_of", "Alpha");
    for (int i = 0; i < 200; i++) {
      g.edge("Filler " + i, "release_year", "1999");
    }
    return g.build();
  }
}
