package io.kgrag.core.srag;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.simgrag.WordEmbedder;
import io.kgrag.core.graph.Labels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small movie graph in MetaQA's shape for the SRAG tests: eight films directed by Ann Lee (years,
 * genres, actors), three by Bo Park, and a few more.
 */
public final class MovieGraph {
  /** Film → (year, genres, actors) for Ann Lee's films. */
  public static final Object[][] ANN_LEE = {
    {"Red River Road", 1980, List.of("Drama"), List.of("Cal Moss")},
    {"Blue Hour", 1982, List.of("Drama", "Comedy"), List.of("Cal Moss", "Dee Fox")},
    {"Green Lake", 1985, List.of("Comedy"), List.of("Cal Moss", "Dee Fox", "Eve Hart")},
    {"Night Train", 1990, List.of("Drama"), List.of("Cal Moss", "Dee Fox", "Eve Hart", "Finn Roe")},
    {"Summer Rain", 1995, List.of("Comedy"), List.of("Cal Moss", "Dee Fox", "Eve Hart", "Finn Roe", "Gil Vale")},
    {"Old Harbour", 2001, List.of("Drama"), List.of("Dee Fox")},
    {"Paper Moon Club", 2005, List.of("Comedy", "Drama"), List.of("Eve Hart")},
    {"Last Light", 2010, List.of("Drama"), List.of()},
  };

  private final Map<String, Long> ids = new LinkedHashMap<>();
  private final List<String[]> edges = new ArrayList<>();

  private MovieGraph() {}

  private void edge(String h, String r, String t) {
    ids.computeIfAbsent(h, k -> (long) ids.size() + 1);
    ids.computeIfAbsent(t, k -> (long) ids.size() + 1);
    edges.add(new String[] {h, r, t});
  }

  /** The graph. */
  public static KnowledgeGraph build() {
    return build(List.of());
  }

  /** The graph with {@code extra} edges (head, relation, tail labels). */
  public static KnowledgeGraph build(List<String[]> extra) {
    MovieGraph g = new MovieGraph();
    for (String[] e : extra) {
      g.edge(e[0], e[1], e[2]);
    }
    for (Object[] f : ANN_LEE) {
      String film = (String) f[0];
      g.edge(film, "directed_by", "Ann Lee");
      g.edge(film, "release_year", f[1].toString());
      for (Object genre : (List<?>) f[2]) {
        g.edge(film, "has_genre", (String) genre);
      }
      for (Object a : (List<?>) f[3]) {
        g.edge(film, "starred_actors", (String) a);
      }
    }
    g.edge("Quiet Fields", "directed_by", "Bo Park");
    g.edge("Quiet Fields", "release_year", "1999");
    g.edge("Quiet Fields", "has_genre", "Drama");
    g.edge("Quiet Fields", "starred_actors", "Cal Moss");
    g.edge("Quiet Fields", "in_language", "French");
    g.edge("Stone Bridge", "directed_by", "Bo Park");
    g.edge("Stone Bridge", "release_year", "2003");
    g.edge("Stone Bridge", "has_genre", "Thriller");
    g.edge("Stone Bridge", "in_language", "French");
    g.edge("Stone Bridge", "has_imdb_rating", "7.5/10");
    g.edge("Quiet Fields", "has_imdb_rating", "8");
    g.edge("Paper Moon Club", "in_language", "French");
    g.edge("Paper Moon Club", "in_language", "English");
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    g.ids.forEach((label, id) -> b.entity(id, label));
    for (String[] e : g.edges) {
      b.edge(g.ids.get(e[0]), e[1], g.ids.get(e[2]));
    }
    return b.build();
  }

  /** A grounder over {@code graph} with the word embedder's relation vectors. */
  public static SetGrounder grounder(KnowledgeGraph graph) {
    return grounder(graph, new WordEmbedder());
  }

  /** A grounder over {@code graph} with {@code e}'s relation vectors. */
  public static SetGrounder grounder(KnowledgeGraph graph, Embedder e) {
    Map<String, float[]> vectors = new HashMap<>();
    for (String r : List.of("directed_by", "release_year", "has_genre", "starred_actors", "in_language", "has_imdb_rating")) {
      vectors.put(r, e.embed(List.of(Labels.relationText(r)))[0]);
    }
    return new SetGrounder(graph, new Gazetteer(graph), new PropertyMatcher(vectors, e));
  }

  /** The entity id of a label. */
  public static long id(KnowledgeGraph g, String label) {
    return g.entityIdsWithLabel(label)[0];
  }
}
