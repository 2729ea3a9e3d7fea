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
import io.kgrag.core.qa.RelationPhraseMatcher;
import io.kgrag.core.embed.Embedder;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.sgrag.gnn.DominanceModel;
import io.kgrag.core.understand.MentionLinker;
import io.kgrag.core.understand.UnderstoodQueryGraphs;
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
    {"Big", "starred_actors", "Tom Hanks"},
    {"Splash", "starred_actors", "Tom Hanks"},
    {"Larry Crowne", "directed_by", "Tom Hanks"},
    {"Big", "directed_by", "Penny Marshall"},
    {"Splash", "directed_by", "Ron Howard"},
    {"Larry Crowne", "written_by", "Nia Vardalos"},
    {"Splash", "written_by", "Bruce Jay Friedman"},
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
    return run(q, null);
  }

  private Retrieval run(QueryGraph q, RelationPhraseMatcher phrases) {
    SgragPlan plan = retriever.plan(q, null, phrases);
    List<PathHit> completion = probe(plan.completion());
    ExactPlan exact = retriever.exact(plan, completion);
    return retriever.retrieve(plan, exact, completion, probe(exact.queries()));
  }

  /** Completion hop by hop until nothing is left to ask (the batch job's extend rounds), then steps 2 and 3. */
  private Retrieval runChain(QueryGraph q) {
    SgragPlan plan = retriever.plan(q, null, null);
    List<PathQuery> asked = new ArrayList<>();
    List<PathHit> hits = new ArrayList<>();
    List<PathQuery> pending = plan.completion();
    int rounds = 0;
    while (!pending.isEmpty()) {
      assertTrue(++rounds <= 3, "completion asks again what it asked");
      asked.addAll(pending);
      hits.addAll(probe(pending));
      pending = retriever.extend(plan, asked, hits);
    }
    ExactPlan exact = retriever.exact(plan, asked, hits);
    return retriever.retrieve(plan, exact, hits, probe(exact.queries()));
  }

  /** A chain from {@code topic}: each step a relation, walked against the edge when it starts with ^. */
  private static QueryGraph chain(String topic, String... steps) {
    QueryGraph.Builder b = QueryGraph.builder();
    int at = b.entity(topic);
    int target = b.unknown(null);
    for (int i = 0; i < steps.length; i++) {
      int next = i == steps.length - 1 ? target : b.unknown(null);
      boolean back = steps[i].startsWith("^");
      String r = back ? steps[i].substring(1) : steps[i];
      if (back) {
        b.edge(next, at, r);
      } else {
        b.edge(at, next, r);
      }
      at = next;
    }
    return b.target(target).build();
  }

  private static List<String> labels(Retrieval r) {
    return r.candidates().stream().map(Candidate::label).sorted().toList();
  }

  @Test
  void aTwoHopChainIsCompletedHopByHopAndKeepsToTheRelationsItNames() {
    // the directors of the films Tom Hanks starred in: Larry Crowne (which he directed) and its writer are not reached
    Retrieval r = runChain(chain("Tom Hanks", "^starred_actors", "directed_by"));
    assertEquals(AnswerStatus.EXACT, r.status());
    assertEquals(List.of("Penny Marshall", "Ron Howard"), labels(r));
    for (Candidate c : r.candidates()) {
      assertEquals(2, c.evidence().size(), c.label());
      for (EvidenceEdge e : c.evidence()) {
        assertTrue(e.relation().equals("starred_actors") || e.relation().equals("directed_by"), e.toString());
      }
    }
    // the same shape without relation names reaches every node two hops away
    QueryGraph.Builder b = QueryGraph.builder();
    int hanks = b.entity("Tom Hanks");
    int t = b.unknown(null);
    int film = b.unknown(null);
    QueryGraph any = b.edge(film, hanks, null).edge(film, t, null).target(t).build();
    assertTrue(labels(runChain(any)).contains("Nia Vardalos"), labels(runChain(any)).toString());
  }

  @Test
  void aThreeHopChainThatCanOnlyStepBackBindsTheNodeAgain() {
    // the directors of the films written by the writer of Splash: he wrote Splash alone, so the films are Splash
    Retrieval r = runChain(chain("Splash", "written_by", "^written_by", "directed_by"));
    assertEquals(AnswerStatus.EXACT, r.status());
    assertEquals(List.of("Ron Howard"), labels(r));
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
  void theStarHasTheLinkedMentionsTheirCoordinationsAndTheTypeWord() {
    java.util.function.Function<String, QueryGraph> x = q -> linkedStar(kg, q);
    QueryGraph q = x.apply("Which Olympic sport is associated with both Barbados and the Republic of Macedonia, and was featured in both the 2004 and 2008 Summer Olympics?");
    assertEquals("olympic sport", q.node(q.target()).typeHint());
    List<String> labels = q.mentions().stream().map(QueryGraph.Node::label).sorted().toList();
    assertEquals(List.of("2004 Summer Olympics", "2008 Summer Olympics", "Barbados", "Republic of Macedonia"), labels);
    Retrieval r = run(q);
    assertEquals(AnswerStatus.EXACT, r.status());
    assertEquals("Judo", r.candidates().get(0).label());
  }

  /**
   * Embeds a text as counts of a few word stems, scaled to unit length as the {@link Embedder} contract
   * asks: enough to tell "direct" from "star" without a model.
   */
  static final class StemEmbedder implements Embedder {
    private static final String[] STEMS = {"direct", "star", "actor", "writ", "genre", "year", "olympic", "athlete"};

    @Override
    public String modelId() {
      return "stems";
    }

    @Override
    public int dimension() {
      return STEMS.length + 1;
    }

    @Override
    public float[][] embed(List<String> texts) {
      float[][] out = new float[texts.size()][];
      for (int i = 0; i < out.length; i++) {
        float[] v = new float[dimension()];
        v[STEMS.length] = 0.1f;
        for (String w : texts.get(i).toLowerCase(java.util.Locale.ROOT).split("[^a-z]+")) {
          for (int k = 0; k < STEMS.length; k++) {
            if (w.startsWith(STEMS[k])) {
              v[k]++;
            }
          }
        }
        double n = 0;
        for (float x : v) {
          n += x * x;
        }
        for (int k = 0; k < v.length; k++) {
          v[k] /= (float) Math.sqrt(n);
        }
        out[i] = v;
      }
      return out;
    }

    @Override
    public void close() {}
  }

  private RelationPhraseMatcher stemMatcher() {
    Embedder e = new StemEmbedder();
    Map<String, float[]> rel = new HashMap<>();
    for (String r : List.of("starred_actors", "directed_by", "/olympics/olympic_sport/athletes", "/location/county/state")) {
      rel.put(r, e.embed(List.of(io.kgrag.core.graph.Labels.relationText(r)))[0]);
    }
    return new RelationPhraseMatcher(rel, e);
  }

  @Test
  void relationPhraseScoresTheNamedRelationBestAndOthersBelow() {
    RelationPhraseMatcher.Scores s = stemMatcher().scores("who directed");
    assertEquals(0.0, s.score("directed_by"), 1e-9);
    assertTrue(s.score("starred_actors") < -0.5, "starred_actors scores " + s.score("starred_actors"));
    assertEquals(null, stemMatcher().scores("  "));
  }

  @Test
  void relationPhraseRanksTheCandidateJoinedByTheNamedRelationFirst() {
    java.util.function.Function<String, QueryGraph> x = q -> linkedStar(kg, q);
    QueryGraph direct = x.apply("what films did Tom Hanks direct");
    assertEquals("what films did direct", direct.edges().get(0).phrase());
    QueryGraph star = x.apply("which films did Tom Hanks star in");
    // without phrases the three films tie on constraints and degree: alphabetical
    assertEquals("Big", run(direct).candidates().get(0).label());
    assertEquals("Larry Crowne", run(direct, stemMatcher()).candidates().get(0).label());
    List<Candidate> starred = run(star, stemMatcher()).candidates();
    assertEquals(List.of("Big", "Splash", "Larry Crowne"), starred.stream().map(Candidate::label).toList());
    assertTrue(starred.get(1).score() > starred.get(2).score());
  }

  @Test
  void aLowerCaseLabelNextToAMentionIsItsAppositionNotAConstraint() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String l : List.of("Shane", "Film", "Van Heflin")) {
      b.entity(id(l), l);
    }
    b.edge(id("Shane"), "starring", id("Van Heflin")).edge(id("Shane"), "type", id("Film"));
    KnowledgeGraph g = b.build();
    java.util.function.Function<String, QueryGraph> x = q -> linkedStar(g, q);
    assertEquals(List.of("Shane"), mentionLabels(x.apply("Who starred in the film \"Shane\"?")));
    // apart from the mention it is one: "a film" names a constraint of its own
    assertEquals(List.of("Shane", "Film"), mentionLabels(x.apply("Who starred in Shane, which is a film?")));
  }

  /** The star of a question's mentions as the understanding's linker finds them in {@code g}. */
  private static QueryGraph linkedStar(KnowledgeGraph g, String question) {
    return UnderstoodQueryGraphs.star(question, new MentionLinker(g, new Gazetteer(g)).link(MentionLinker.tokens(question), question));
  }

  private static List<String> mentionLabels(QueryGraph q) {
    return q.mentions().stream().map(QueryGraph.Node::label).toList();
  }

  @Test
  void closedClassWordsAloneMakeNoPhrase() {
    java.util.function.Function<String, QueryGraph> x = q -> linkedStar(kg, q);
    QueryGraph q = x.apply("Which Olympic sport has both Barbados and the Republic of Macedonia?");
    for (QueryGraph.Edge e : q.edges()) {
      assertEquals(null, e.phrase(), "edge to " + q.node(e.src()).label());
    }
  }
}
