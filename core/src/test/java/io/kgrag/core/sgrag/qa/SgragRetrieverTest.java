package io.kgrag.core.sgrag.qa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.index.SearchStats;
import io.kgrag.core.index.partition.PathPartition;
import io.kgrag.core.index.partition.PathRecord;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.embedded.EmbeddedQueryGraphExtractor;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.sgrag.gnn.DominanceModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * SG-RAG retrieval end to end on a small graph, with the path index built in memory. Data path vectors
 * dominate every query vector, so the index filters by label keys only and the test checks completion,
 * assembly, verification, ranking and the partial and fallback statuses.
 */
class SgragRetrieverTest {
  private static final String[][] EDGES = {
    {"Judo", "/olympics/olympic_sport/athletes", "Barbados"},
    {"Judo", "/olympics/olympic_sport/athletes", "Republic of Macedonia"},
    {"Judo", "/olympics/olympic_sport/games", "2004 Summer Olympics"},
    {"Judo", "/olympics/olympic_sport/games", "2008 Summer Olympics"},
    {"Boxing", "/olympics/olympic_sport/athletes", "Barbados"},
    {"Boxing", "/olympics/olympic_sport/games", "2004 Summer Olympics"},
    {"Barbados", "/location/country/capital", "Bridgetown"},
    {"Washington County", "/location/county/state", "Oregon"},
    {"Washington County#2", "/location/county/state", "Utah"},
  };

  private final KnowledgeGraph kg;
  private final SgragRetriever retriever;
  private final PathPartition index;

  SgragRetrieverTest() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String[] e : EDGES) {
      b.entity(id(e[0]), label(e[0])).entity(id(e[2]), label(e[2])).edge(id(e[0]), e[1], id(e[2]));
    }
    kg = b.build();
    DominanceModel model = DominanceModel.untrained(8, 4, 2, 1);
    Map<Long, float[]> features = new HashMap<>();
    Random r = new Random(3);
    for (int i = 0; i < kg.nodeCount(); i++) {
      float[] f = new float[8];
      for (int k = 0; k < 8; k++) {
        f[k] = (float) r.nextGaussian();
      }
      features.putIfAbsent(kg.labelKey(i), f);
    }
    retriever = new SgragRetriever(kg, model, features::get, SgragRetriever.Config.defaults(1));
    List<PathRecord> paths = new ArrayList<>();
    float[] top = new float[4];
    Arrays.fill(top, 1e6f);
    for (int a = 0; a < kg.nodeCount(); a++) {
      for (int n : kg.neighbours(a)) {
        long[] ids = {kg.entityId(a), kg.entityId(n)};
        paths.add(new PathRecord(StableIds.pathId(ids), ids, new long[] {kg.labelKey(a), kg.labelKey(n)}, top));
      }
    }
    index = PathPartition.build(0, 1, 4, paths);
  }

  private static long id(String key) {
    return StableIds.entityId(key);
  }

  private static String label(String key) {
    int hash = key.indexOf('#');
    return hash < 0 ? key : key.substring(0, hash);
  }

  private List<PathHit> probe(List<PathQuery> queries) {
    List<PathHit> out = new ArrayList<>();
    for (PathQuery q : queries) {
      index.probe(q.labelKeys(), q.vector(), m -> out.add(new PathHit(q.pathNo(), m.nodeIds())), new SearchStats());
    }
    return out;
  }

  private Retrieval run(QueryGraph q) {
    SgragPlan plan = retriever.plan(q, null);
    List<PathHit> completion = probe(plan.completion());
    ExactPlan exact = retriever.exact(plan, completion);
    return retriever.retrieve(plan, exact, completion, probe(exact.queries()));
  }

  private static QueryGraph star(String type, String... mentions) {
    QueryGraph.Builder b = QueryGraph.builder();
    int u = b.unknown(type);
    for (String m : mentions) {
      b.edge(b.entity(m), u, null);
    }
    return b.build();
  }

  @Test
  void exactSubgraphBindsTheOnlyNodeMeetingEveryConstraint() {
    Retrieval r = run(star("sport", "Barbados", "Republic of Macedonia", "2004 Summer Olympics"));
    assertEquals(AnswerStatus.EXACT, r.status());
    Candidate top = r.candidates().get(0);
    assertEquals("Judo", top.label());
    assertEquals(1, r.candidates().size());
    assertEquals(3, top.satisfied());
    for (EvidenceEdge e : top.evidence()) { // every evidence edge is an edge of the graph
      assertFalse(kg.edgesBetween(kg.index(e.srcId()), kg.index(e.dstId())).isEmpty());
    }
    assertEquals(3, top.evidence().size());
  }

  @Test
  void noFullMatchRanksByConstraintsSatisfied() {
    Retrieval r = run(star("sport", "Barbados", "Republic of Macedonia", "Utah"));
    assertEquals(AnswerStatus.PARTIAL, r.status());
    assertEquals("Judo", r.candidates().get(0).label());
    assertEquals(2, r.candidates().get(0).satisfied());
  }

  @Test
  void ambiguousLabelBindsTheNodeThatConnects() {
    Retrieval r = run(star(null, "Washington County"));
    assertEquals(AnswerStatus.EXACT, r.status());
    List<String> answers = r.candidates().stream().map(Candidate::label).toList();
    assertTrue(answers.containsAll(List.of("Oregon", "Utah")), answers.toString());
  }

  @Test
  void mentionsOutsideTheGraphAreDroppedAndSaid() {
    Retrieval r = run(star("sport", "Barbados", "Atlantis"));
    assertEquals(AnswerStatus.EXACT, r.status());
    assertTrue(r.note().contains("Atlantis"), r.note());
    Retrieval none = run(star("sport", "Atlantis"));
    assertEquals(AnswerStatus.UNABLE, none.status());
  }

  @Test
  void decompositionCoversEveryEdge() {
    QueryGraph q = star(null, "Barbados", "Republic of Macedonia", "2004 Summer Olympics");
    assertEquals(3, PathDecomposer.decompose(q, 1).size());
    List<QueryPathPlan> two = PathDecomposer.decompose(q, 2);
    assertEquals(2, two.size());
    for (QueryPathPlan p : two) {
      assertFalse(q.node(p.nodes()[0]).unknown(), "a labelled node comes first: " + p);
    }
    assertTrue(PathDecomposer.decompose(star(null, "Barbados"), 2).isEmpty());
  }

  @Test
  void embeddedExtractorFindsMentionsCoordinationsAndTypeWord() {
    EmbeddedQueryGraphExtractor x = new EmbeddedQueryGraphExtractor(new Gazetteer(kg), null);
    QueryGraph q = x.extract("Which Olympic sport is associated with both Barbados and the Republic of Macedonia, and was featured in both the 2004 and 2008 Summer Olympics?");
    assertEquals("olympic sport", q.node(q.target()).typeHint());
    List<String> labels = q.mentions().stream().map(QueryGraph.Node::label).sorted().toList();
    assertEquals(List.of("2004 Summer Olympics", "2008 Summer Olympics", "Barbados", "Republic of Macedonia"), labels);
    Retrieval r = run(q);
    assertEquals(AnswerStatus.EXACT, r.status());
    assertEquals("Judo", r.candidates().get(0).label());
  }
}
