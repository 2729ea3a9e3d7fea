package io.kgrag.core.simgrag;

import io.kgrag.core.graph.KnowledgeGraph;

/** A MetaQA-like movie graph for SimGRAG's tests; "Star" is a film, so the word "star" is a label too. */
public final class MovieGraph {
  public static final KnowledgeGraph GRAPH =
      KnowledgeGraph.builder()
          .entity(1, "Big").entity(2, "Tom Hanks").entity(3, "Penny Marshall").entity(4, "Sleepless in Seattle").entity(5, "Meg Ryan")
          .entity(6, "Nora Ephron").entity(7, "Star").entity(8, "1988")
          .edge(1, "starred_actors", 2).edge(1, "directed_by", 3).edge(4, "starred_actors", 2).edge(4, "starred_actors", 5)
          .edge(4, "directed_by", 6).edge(1, "release_year", 8).edge(7, "release_year", 8)
          .build();

  private MovieGraph() {}
}
