package io.kgrag.core.sgrag.qa;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.index.partition.PathPartition;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.RelationPhraseMatcher;
import io.kgrag.core.qa.TypeMatcher;
import io.kgrag.core.sgrag.gnn.DominanceModel;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongFunction;

/**
 * SG-RAG retrieval for one question, in the three steps that talk to the path index, so that a batch job
 * can send every question's index queries to the partitioned index at once between steps:
 *
 * <ol>
 *   <li>{@link #plan}: drop mentions the graph does not know, decompose into query paths (Algorithm 4),
 *       and make the label-completion queries: unknown positions as wildcards with a zero vector (Algorithm 5).
 *   <li>{@link #extend}, as often as a chain of unknowns needs: completion carried one hop further, from the
 *       labels the hits so far give an unknown to the unknowns past it.
 *   <li>{@link #exact}: from the completion hits, the candidate labels of each unknown (intersection over
 *       its paths, Algorithm 5 lines 29-33), their combinations that the hits join (Algorithm 6), and for each
 *       the exact query paths with GNN dominance vectors o(p_q) (Algorithm 7 line 5).
 *   <li>{@link #retrieve}: assemble the exact hits into subgraphs (Algorithm 8) with injective bindings (where
 *       none exists, a chain's unknowns may step back onto a node already bound),
 *       verify every query edge against the graph, and rank the target's bindings. When no subgraph
 *       satisfies every constraint, rank the completion hits by the constraints they satisfy (partial);
 *       when the index returned nothing, rank the mentions' 1-hop neighbours (Algorithm 1 line 22).
 * </ol>
 *
 * <p>A query edge whose phrase is exactly the name of a relation of the graph (the question understanding's
 * chains) is satisfied only by an edge of that relation, in either direction: completion hits, exact hits and
 * the verification check it, and its evidence is those edges.
 *
 * <p>Ranking: a candidate's score is the sum of the confidences of the mentions its subgraph connects,
 * plus {@link Config#relationWeight} × how well the relations joining it to the mentions name the
 * question's relation phrases ({@link RelationPhraseMatcher}, ≤ 0), plus {@link Config#typeBonus} when it
 * has the question's type, minus {@link Config#degreePenalty} × ln(1 + degree). The last term is the likelihood of the question's constraints if they were drawn from the
 * answer's neighbours: among equally constrained candidates, the one with fewer neighbours explains the
 * question better.
 */
public final class SgragRetriever implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Limits and ranking weights. */
  public record Config(
      int pathLength, int maxCombos, int maxSubgraphs, int maxCandidates, double typeBonus, double degreePenalty, double relationWeight)
      implements Serializable {
    public static Config defaults(int pathLength) {
      return new Config(pathLength, 256, 2000, 20, 0.45, 0.04, 1.0);
    }

    public Config withRelationWeight(double w) {
      return new Config(pathLength, maxCombos, maxSubgraphs, maxCandidates, typeBonus, degreePenalty, w);
    }
  }

  private final KnowledgeGraph kg;
  private final DominanceModel model;
  private final LongFunction<float[]> keyFeature;
  private final TypeMatcher types;
  private final Config config;
  private final Set<String> relationNames;

  /**
   * @param keyFeature the label embedding the GNN was trained on, per label key
   */
  public SgragRetriever(KnowledgeGraph kg, DominanceModel model, LongFunction<float[]> keyFeature, Config config) {
    this(kg, model, keyFeature, new TypeMatcher(kg), config, new HashSet<>(kg.relationNames()));
  }

  private SgragRetriever(
      KnowledgeGraph kg, DominanceModel model, LongFunction<float[]> keyFeature, TypeMatcher types, Config config, Set<String> relationNames) {
    this.kg = kg;
    this.model = model;
    this.keyFeature = keyFeature;
    this.types = types;
    this.config = config;
    this.relationNames = relationNames;
  }

  /** This retriever reading its label features from {@code keyFeature} (what it derives from the graph is shared). */
  public SgragRetriever withKeyFeature(LongFunction<float[]> keyFeature) {
    return new SgragRetriever(kg, model, keyFeature, types, config, relationNames);
  }

  /** The dimension of the label features the GNN reads. */
  public int featureDim() {
    return model.inputDim();
  }

  public Config config() {
    return config;
  }

  // ---------------------------------------------------------------- step 1

  /** Step 1 without relation phrases. */
  public SgragPlan plan(QueryGraph normalised, boolean[] resolved) {
    return plan(normalised, resolved, null);
  }

  /**
   * Step 1; {@code resolved[i]} false drops node i (a mention normalisation could not place). With a
   * {@code phrases} matcher, each query edge's relation phrase is scored against the graph's relations.
   */
  public SgragPlan plan(QueryGraph normalised, boolean[] resolved, RelationPhraseMatcher phrases) {
    List<String> dropped = new ArrayList<>();
    QueryGraph.Builder b = QueryGraph.builder();
    int[] remap = new int[normalised.nodes().size()];
    Arrays.fill(remap, -1);
    for (QueryGraph.Node n : normalised.nodes()) {
      boolean known = n.unknown() || kg.nodesWithLabelKey(StableIds.labelKey(n.label())).length > 0;
      if (!known || (resolved != null && !resolved[n.id()])) {
        dropped.add(n.label());
        continue;
      }
      remap[n.id()] = n.unknown() ? b.unknown(n.typeHint()) : b.entity(n.label(), n.description(), n.confidence());
    }
    if (normalised.target() >= 0 && remap[normalised.target()] >= 0) {
      b.target(remap[normalised.target()]);
    }
    for (QueryGraph.Edge e : normalised.edges()) {
      if (remap[e.src()] >= 0 && remap[e.dst()] >= 0) {
        b.edge(remap[e.src()], remap[e.dst()], e.phrase());
      }
    }
    QueryGraph q = b.build();
    long[] keys = new long[q.nodes().size()];
    for (QueryGraph.Node n : q.nodes()) {
      keys[n.id()] = n.unknown() ? PathPartition.WILDCARD : StableIds.labelKey(n.label());
    }
    List<QueryPathPlan> paths = PathDecomposer.decompose(q, config.pathLength());
    List<PathQuery> completion = new ArrayList<>();
    int dims = (config.pathLength() + 1) * model.outputDim();
    for (int i = 0; i < paths.size(); i++) {
      int[] p = paths.get(i).nodes();
      boolean hasUnknown = false;
      long[] k = new long[p.length];
      for (int j = 0; j < p.length; j++) {
        k[j] = keys[p[j]];
        hasUnknown |= k[j] == PathPartition.WILDCARD;
      }
      if (hasUnknown && k[0] != PathPartition.WILDCARD) {
        completion.add(new PathQuery(i, k, new float[dims]));
      }
    }
    List<RelationPhraseMatcher.Scores> edgeRelations = new ArrayList<>();
    for (QueryGraph.Edge e : q.edges()) {
      edgeRelations.add(phrases == null ? null : phrases.scores(e.phrase()));
    }
    return new SgragPlan(q, keys, paths, completion, dropped, edgeRelations);
  }

  // ---------------------------------------------------------------- label completion, hop by hop

  /**
   * Label completion past an unknown (Algorithm 5 carried along a chain): the query paths that no completion
   * query has asked yet, both of whose ends are unknown, asked from an end whose candidate labels the hits so far
   * give, once per candidate label (at most {@link Config#maxCombos} of them). A path asked from its last node is
   * numbered {@code path + }{@link #REVERSED}; its hits come back in that orientation. Empty when nothing is left
   * to complete.
   *
   * @param asked every completion query sent so far (the plan's and earlier extensions')
   * @param hits every completion hit so far
   */
  public List<PathQuery> extend(SgragPlan plan, List<PathQuery> asked, List<PathHit> hits) {
    QueryGraph q = plan.graph();
    if (q.unknowns().isEmpty() || hits.isEmpty()) {
      return List.of();
    }
    Set<Integer> done = askedPaths(asked);
    Map<Integer, List<int[]>> byPath = completionPaths(plan, hits);
    List<PathQuery> out = new ArrayList<>();
    int dims = (config.pathLength() + 1) * model.outputDim();
    for (int i = 0; i < plan.paths().size(); i++) {
      int[] p = plan.paths().get(i).nodes();
      if (done.contains(i) || Arrays.stream(p).allMatch(v -> !q.node(v).unknown())) {
        continue; // asked already, or nothing to complete (a path between two mentions)
      }
      boolean fromLast = false;
      long[] labels = candidateLabels(plan, p[0], done, byPath);
      if (labels == null || labels.length == 0) {
        labels = candidateLabels(plan, p[p.length - 1], done, byPath);
        fromLast = true;
      }
      if (labels == null || labels.length == 0) {
        continue; // neither end is completed yet: a later round asks it
      }
      for (int c = 0; c < Math.min(labels.length, config.maxCombos()); c++) {
        long[] k = new long[p.length];
        for (int j = 0; j < p.length; j++) {
          k[j] = plan.nodeKeys()[p[fromLast ? p.length - 1 - j : j]];
        }
        k[0] = labels[c];
        out.add(new PathQuery(fromLast ? i + REVERSED : i, k, new float[dims]));
      }
    }
    return out;
  }

  /** Numbering of a completion query that walks its plan path from the last node to the first. */
  public static final int REVERSED = 1 << 24;

  private static Set<Integer> askedPaths(List<PathQuery> asked) {
    Set<Integer> done = new HashSet<>();
    for (PathQuery a : asked) {
      done.add(a.pathNo() % REVERSED);
    }
    return done;
  }

  /**
   * The label keys query node {@code v} can take: its own for a mention; for an unknown, those at its position in
   * the hits of every asked path through it (null when no asked path goes through it).
   */
  private long[] candidateLabels(SgragPlan plan, int v, Set<Integer> asked, Map<Integer, List<int[]>> byPath) {
    if (!plan.graph().node(v).unknown()) {
      return new long[] {plan.nodeKeys()[v]};
    }
    TreeSet<Long> cand = null;
    for (int i : asked) {
      int pos = plan.paths().get(i).position(v);
      if (pos < 0) {
        continue;
      }
      TreeSet<Long> here = new TreeSet<>();
      for (int[] path : byPath.getOrDefault(i, List.of())) {
        here.add(kg.labelKey(path[pos]));
      }
      if (cand == null) {
        cand = here;
      } else {
        cand.retainAll(here);
      }
    }
    return cand == null ? null : cand.stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * The completion hits as graph node indexes in their plan path's orientation, per path, sorted; a hit with a
   * node the graph does not hold, or with an edge that lacks the relation its query edge names, is dropped.
   */
  private Map<Integer, List<int[]>> completionPaths(SgragPlan plan, List<PathHit> hits) {
    Map<Integer, List<int[]>> out = new TreeMap<>();
    for (PathHit h : hits) {
      int no = h.pathNo() % REVERSED;
      boolean reversed = h.pathNo() >= REVERSED;
      int n = h.nodeIds().length;
      int[] idx = new int[n];
      boolean ok = true;
      for (int j = 0; j < n && ok; j++) {
        idx[reversed ? n - 1 - j : j] = kg.index(h.nodeIds()[j]);
        ok = idx[reversed ? n - 1 - j : j] >= 0;
      }
      if (ok && joins(plan.graph(), plan.paths().get(no).nodes(), idx)) {
        out.computeIfAbsent(no, k -> new ArrayList<>()).add(idx);
      }
    }
    for (List<int[]> l : out.values()) {
      l.sort(PATH_ORDER);
    }
    return out;
  }

  /** The relation a query edge names exactly (its phrase is a relation of the graph), or null. */
  private String namedRelation(QueryGraph.Edge e) {
    return e.phrase() != null && relationNames.contains(e.phrase()) ? e.phrase() : null;
  }

  /** Whether graph nodes a and b satisfy the query edge: adjacent, and by its relation where it names one. */
  private boolean satisfies(QueryGraph.Edge e, int a, int b) {
    String r = namedRelation(e);
    return r == null ? kg.adjacent(a, b) : kg.joinedBy(a, b, r);
  }

  /** Whether a data path satisfies the query edges along query path {@code qp} (adjacency is the index's). */
  private boolean joins(QueryGraph q, int[] qp, int[] path) {
    for (int j = 0; j + 1 < qp.length; j++) {
      int e = edgeIndex(q, qp[j], qp[j + 1]);
      String r = e < 0 ? null : namedRelation(q.edges().get(e));
      if (r != null && !kg.joinedBy(path[j], path[j + 1], r)) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------- step 2

  /** Step 2 after the plan's completion queries alone. */
  public ExactPlan exact(SgragPlan plan, List<PathHit> completionHits) {
    return exact(plan, plan.completion(), completionHits);
  }

  /**
   * Step 2: candidate labels of the unknowns and the exact query paths of every combination. A combination
   * takes, per unknown, a label that every asked path through it returned (Algorithm 5 lines 29-33), and its
   * labels together must appear in one hit of every asked path (Algorithm 6, with the combinations no hit
   * joins left out).
   *
   * @param asked every completion query sent ({@link SgragPlan#completion} and {@link #extend}'s)
   */
  public ExactPlan exact(SgragPlan plan, List<PathQuery> asked, List<PathHit> completionHits) {
    return queries(plan, combinations(plan, asked, completionHits));
  }

  /**
   * Step 2's combinations of the unknowns' labels ({@link #exact} without its query paths, which need the label
   * features of every key in them: {@link #queries}).
   */
  public ExactPlan combinations(SgragPlan plan, List<PathQuery> asked, List<PathHit> completionHits) {
    QueryGraph q = plan.graph();
    List<QueryGraph.Node> unknowns = q.unknowns();
    if (unknowns.isEmpty() || completionHits.isEmpty()) {
      return ExactPlan.NONE;
    }
    Set<Integer> done = askedPaths(asked);
    Map<Integer, List<int[]>> byPath = completionPaths(plan, completionHits);
    int[] unknownIds = unknowns.stream().mapToInt(QueryGraph.Node::id).toArray();
    List<long[]> options = new ArrayList<>();
    for (int u : unknownIds) {
      long[] cand = candidateLabels(plan, u, done, byPath);
      if (cand == null || cand.length == 0) {
        return ExactPlan.NONE; // an unknown no known node reaches, or no label satisfies all its paths
      }
      options.add(cand);
    }
    // per asked path, the label tuples its hits take
    Map<Integer, Set<List<Long>>> tuples = new TreeMap<>();
    for (int i : new TreeSet<>(done)) {
      Set<List<Long>> t = new HashSet<>();
      for (int[] path : byPath.getOrDefault(i, List.of())) {
        List<Long> keys = new ArrayList<>(path.length);
        for (int node : path) {
          keys.add(kg.labelKey(node));
        }
        t.add(keys);
      }
      tuples.put(i, t);
    }
    List<long[]> combos = new ArrayList<>();
    long[] keys = plan.nodeKeys().clone();
    boolean truncated = consistent(plan, unknownIds, options, tuples, 0, keys, combos, config.maxCombos());
    if (combos.isEmpty()) {
      return ExactPlan.NONE;
    }
    return new ExactPlan(unknownIds, combos, List.of(), truncated);
  }

  /** Step 2's exact query paths of every combination of {@code combinations} (Algorithm 7 line 5: the GNN's o(p_q)). */
  public ExactPlan queries(SgragPlan plan, ExactPlan combinations) {
    if (combinations.empty()) {
      return ExactPlan.NONE;
    }
    QueryGraph q = plan.graph();
    int[] unknownIds = combinations.unknowns();
    List<long[]> combos = combinations.combos();
    List<PathQuery> queries = new ArrayList<>();
    int nPaths = plan.paths().size();
    for (int c = 0; c < combos.size(); c++) {
      long[] ck = plan.nodeKeys().clone();
      for (int i = 0; i < unknownIds.length; i++) {
        ck[unknownIds[i]] = combos.get(c)[i];
      }
      float[][] nodeVec = nodeVectors(q, ck);
      for (int i = 0; i < nPaths; i++) {
        int[] p = plan.paths().get(i).nodes();
        long[] k = new long[p.length];
        float[] v = new float[p.length * model.outputDim()];
        for (int j = 0; j < p.length; j++) {
          k[j] = ck[p[j]];
          System.arraycopy(nodeVec[p[j]], 0, v, j * model.outputDim(), model.outputDim());
        }
        queries.add(new PathQuery(c * nPaths + i, k, v));
      }
    }
    return new ExactPlan(unknownIds, combos, queries, combinations.truncated());
  }

  /**
   * The combinations of the unknowns' labels, in the order of their options, that every asked path's hits
   * join; at most {@code cap}. True when there were more.
   */
  private static boolean consistent(
      SgragPlan plan, int[] unknownIds, List<long[]> options, Map<Integer, Set<List<Long>>> tuples, int i, long[] keys, List<long[]> out, int cap) {
    if (i == unknownIds.length) {
      if (out.size() >= cap) {
        return true;
      }
      long[] combo = new long[unknownIds.length];
      for (int j = 0; j < unknownIds.length; j++) {
        combo[j] = keys[unknownIds[j]];
      }
      out.add(combo);
      return false;
    }
    for (long v : options.get(i)) {
      keys[unknownIds[i]] = v;
      if (joined(plan, unknownIds, i, tuples, keys) && consistent(plan, unknownIds, options, tuples, i + 1, keys, out, cap)) {
        keys[unknownIds[i]] = PathPartition.WILDCARD;
        return true;
      }
    }
    keys[unknownIds[i]] = PathPartition.WILDCARD;
    return false;
  }

  /** Whether the asked paths through unknown {@code i} whose unknowns are all bound by now have a hit with these labels. */
  private static boolean joined(SgragPlan plan, int[] unknownIds, int i, Map<Integer, Set<List<Long>>> tuples, long[] keys) {
    for (Map.Entry<Integer, Set<List<Long>>> t : tuples.entrySet()) {
      int[] p = plan.paths().get(t.getKey()).nodes();
      boolean through = false;
      boolean bound = true;
      List<Long> k = new ArrayList<>(p.length);
      for (int v : p) {
        through |= v == unknownIds[i];
        bound &= keys[v] != PathPartition.WILDCARD;
        k.add(keys[v]);
      }
      if (through && bound && !t.getValue().contains(k)) {
        return false;
      }
    }
    return true;
  }

  /** o(q_i) of every query node: the GNN over its star in the label-complete query graph. */
  private float[][] nodeVectors(QueryGraph q, long[] keys) {
    float[][] proj = new float[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      float[] f = keyFeature.apply(keys[i]);
      if (f == null) {
        throw new IllegalStateException("no label feature for key " + keys[i] + " (node '" + q.node(i).label() + "'): is the index current?");
      }
      proj[i] = model.project(f);
    }
    float[][] out = new float[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      List<float[]> leaves = new ArrayList<>();
      for (QueryGraph.Edge e : q.edges()) {
        if (e.src() == i || e.dst() == i) {
          leaves.add(proj[e.other(i)]);
        }
      }
      out[i] = model.embedStar(proj[i], leaves);
    }
    return out;
  }

  // ---------------------------------------------------------------- step 3

  /** Step 3: assembly, verification and ranking. */
  public Retrieval retrieve(SgragPlan plan, ExactPlan exact, List<PathHit> completionHits, List<PathHit> exactHits) {
    QueryGraph q = plan.graph();
    int target = q.target();
    if (q.mentions().isEmpty()) {
      return new Retrieval(AnswerStatus.UNABLE, List.of(), "no mention of the question is an entity of the graph" + droppedNote(plan));
    }
    if (target >= 0 && !exact.empty() && !exactHits.isEmpty()) {
      List<Candidate> c = assemble(plan, exact, exactHits, true);
      if (c.isEmpty() && q.unknowns().size() > 1) {
        // a chain whose only way on is back through a node it came from ("the films by the writer of F" when
        // the writer wrote F alone): the unknowns may then bind a node the subgraph holds already
        c = assemble(plan, exact, exactHits, false);
      }
      if (!c.isEmpty()) {
        return new Retrieval(AnswerStatus.EXACT, c, (exact.truncated() ? "label combinations capped at " + config.maxCombos() : "") + droppedNote(plan));
      }
    }
    if (target >= 0 && !completionHits.isEmpty()) {
      List<Candidate> c = partial(plan, completionHits);
      if (!c.isEmpty()) {
        return new Retrieval(AnswerStatus.PARTIAL, c, "no subgraph satisfies every constraint" + droppedNote(plan));
      }
    }
    List<Candidate> c = fallback(plan);
    if (!c.isEmpty()) {
      return new Retrieval(AnswerStatus.FALLBACK, c, "the path index matched nothing; 1-hop neighbours of the mentions" + droppedNote(plan));
    }
    return new Retrieval(AnswerStatus.UNABLE, List.of(), "nothing in the graph connects to the mentions" + droppedNote(plan));
  }

  private static String droppedNote(SgragPlan plan) {
    return plan.dropped().isEmpty() ? "" : "; not in the graph: " + String.join(", ", plan.dropped());
  }

  /**
   * Algorithm 8 with verification: consistent bindings of the query nodes, per combination; injective ones, or
   * with {@code injective} false ones where an unknown may repeat a node (never the target a mention's).
   */
  private List<Candidate> assemble(SgragPlan plan, ExactPlan exact, List<PathHit> exactHits, boolean injective) {
    QueryGraph q = plan.graph();
    int nPaths = plan.paths().size();
    Map<Integer, List<PathHit>> byNo = groupByPath(exactHits);
    Map<Integer, int[]> firstBinding = new LinkedHashMap<>();
    int[] budget = {config.maxSubgraphs()};
    for (int c = 0; c < exact.combos().size() && budget[0] > 0; c++) {
      List<List<int[]>> lists = new ArrayList<>();
      boolean empty = false;
      for (int i = 0; i < nPaths; i++) {
        List<int[]> nodes = new ArrayList<>();
        for (PathHit h : byNo.getOrDefault(c * nPaths + i, List.of())) {
          int[] idx = new int[h.nodeIds().length];
          boolean ok = true;
          for (int j = 0; j < idx.length; j++) {
            idx[j] = kg.index(h.nodeIds()[j]);
            ok &= idx[j] >= 0;
          }
          if (ok && joins(q, plan.paths().get(i).nodes(), idx)) {
            nodes.add(idx);
          }
        }
        nodes.sort(PATH_ORDER);
        empty |= nodes.isEmpty();
        lists.add(nodes);
      }
      if (empty) {
        continue;
      }
      Integer[] order = new Integer[nPaths];
      for (int i = 0; i < nPaths; i++) {
        order[i] = i;
      }
      Arrays.sort(order, Comparator.comparingInt(i -> lists.get(i).size()));
      int[] binding = new int[q.nodes().size()];
      Arrays.fill(binding, -1);
      join(plan, lists, order, 0, binding, firstBinding, budget, injective);
    }
    List<Candidate> out = new ArrayList<>();
    for (int[] bnd : firstBinding.values()) {
      List<EvidenceEdge> ev = new ArrayList<>();
      double rel = 0;
      for (int i = 0; i < q.edges().size(); i++) {
        QueryGraph.Edge e = q.edges().get(i);
        List<EvidenceEdge> here = evidence(e, bnd[e.src()], bnd[e.dst()]);
        rel += relationScore(plan, i, here);
        ev.addAll(here);
      }
      double conf = 0;
      for (QueryGraph.Node n : q.mentions()) {
        conf += n.confidence();
      }
      int x = bnd[q.target()];
      out.add(candidate(x, conf, rel, q.edges().size(), q.edges().size(), ev, q.node(q.target()).typeHint()));
    }
    return rank(out);
  }

  private void join(
      SgragPlan plan, List<List<int[]>> lists, Integer[] order, int depth, int[] binding, Map<Integer, int[]> found, int[] budget, boolean injective) {
    if (budget[0] <= 0) {
      return;
    }
    QueryGraph q = plan.graph();
    if (depth == order.length) {
      budget[0]--;
      for (QueryGraph.Edge e : q.edges()) { // verification against the graph
        if (binding[e.src()] < 0 || binding[e.dst()] < 0 || !satisfies(e, binding[e.src()], binding[e.dst()])) {
          return;
        }
      }
      found.putIfAbsent(binding[q.target()], binding.clone());
      return;
    }
    int[] qp = plan.paths().get(order[depth]).nodes();
    for (int[] dp : lists.get(order[depth])) {
      int[] saved = binding.clone();
      boolean ok = true;
      for (int j = 0; j < qp.length && ok; j++) {
        int v = qp[j];
        if (binding[v] >= 0) {
          ok = binding[v] == dp[j];
        } else {
          for (int w = 0; w < binding.length && ok; w++) {
            boolean distinct = injective || (v == q.target() && !q.node(w).unknown()); // the answer is never a mention
            ok = !distinct || binding[w] != dp[j];
          }
          binding[v] = dp[j];
        }
      }
      if (ok && !(binding[q.target()] >= 0 && found.containsKey(binding[q.target()]))) {
        join(plan, lists, order, depth + 1, binding, found, budget, injective);
      }
      System.arraycopy(saved, 0, binding, 0, binding.length);
      if (budget[0] <= 0) {
        return;
      }
    }
  }

  /** No exact subgraph: the target's bindings in the completion hits, by the constraints they satisfy. */
  private List<Candidate> partial(SgragPlan plan, List<PathHit> completionHits) {
    QueryGraph q = plan.graph();
    int t = q.target();
    Map<Integer, List<int[]>> byPath = completionPaths(plan, completionHits);
    Map<Integer, Map<Integer, int[]>> support = new HashMap<>(); // candidate -> known query node -> path nodes
    for (PathQuery cq : plan.completion()) {
      QueryPathPlan p = plan.paths().get(cq.pathNo());
      int pos = p.position(t);
      if (pos < 0) {
        continue;
      }
      for (int[] idx : byPath.getOrDefault(cq.pathNo(), List.of())) {
        if (Arrays.stream(idx).distinct().count() < idx.length) {
          continue;
        }
        for (int j = 0; j < idx.length; j++) {
          int v = p.nodes()[j];
          if (!q.node(v).unknown()) {
            Map<Integer, int[]> m = support.computeIfAbsent(idx[pos], k -> new HashMap<>());
            int[] prev = m.get(v);
            if (prev == null || PATH_ORDER.compare(idx, prev) < 0) {
              m.put(v, idx);
            }
          }
        }
      }
    }
    List<Candidate> out = new ArrayList<>();
    for (Map.Entry<Integer, Map<Integer, int[]>> e : support.entrySet()) {
      int x = e.getKey();
      if (isMentionNode(plan, x)) {
        continue;
      }
      double conf = 0;
      double rel = 0;
      List<EvidenceEdge> ev = new ArrayList<>();
      for (Map.Entry<Integer, int[]> s : new TreeMap<>(e.getValue()).entrySet()) {
        conf += q.node(s.getKey()).confidence();
        int[] path = s.getValue();
        List<EvidenceEdge> here = new ArrayList<>();
        for (int j = 0; j + 1 < path.length; j++) {
          here.addAll(evidence(path[j], path[j + 1]));
        }
        rel += relationScore(plan, edgeIndex(q, s.getKey(), t), here);
        ev.addAll(here);
      }
      out.add(candidate(x, conf, rel, e.getValue().size(), q.mentions().size(), ev, q.node(t).typeHint()));
    }
    return rank(out);
  }

  /** Algorithm 1 line 22: the 1-hop neighbours of the mentioned entities. */
  private List<Candidate> fallback(SgragPlan plan) {
    QueryGraph q = plan.graph();
    String typeHint = q.target() >= 0 ? q.node(q.target()).typeHint() : null;
    Map<Integer, Map<Integer, Integer>> support = new HashMap<>(); // candidate -> mention query node -> mention graph node
    for (QueryGraph.Node m : q.mentions()) {
      for (int g : kg.nodesWithLabelKey(StableIds.labelKey(m.label()))) {
        for (int x : kg.neighbours(g)) {
          support.computeIfAbsent(x, k -> new HashMap<>()).merge(m.id(), g, Math::min);
        }
      }
    }
    List<Candidate> out = new ArrayList<>();
    for (Map.Entry<Integer, Map<Integer, Integer>> e : support.entrySet()) {
      if (isMentionNode(plan, e.getKey())) {
        continue;
      }
      double conf = 0;
      double rel = 0;
      List<EvidenceEdge> ev = new ArrayList<>();
      for (Map.Entry<Integer, Integer> s : new TreeMap<>(e.getValue()).entrySet()) {
        conf += q.node(s.getKey()).confidence();
        List<EvidenceEdge> here = evidence(s.getValue(), e.getKey());
        rel += relationScore(plan, q.target() >= 0 ? edgeIndex(q, s.getKey(), q.target()) : -1, here);
        ev.addAll(here);
      }
      out.add(candidate(e.getKey(), conf, rel, e.getValue().size(), q.mentions().size(), ev, typeHint));
    }
    return rank(out);
  }

  private boolean isMentionNode(SgragPlan plan, int node) {
    long key = kg.labelKey(node);
    for (QueryGraph.Node m : plan.graph().mentions()) {
      if (plan.nodeKeys()[m.id()] == key) {
        return true;
      }
    }
    return false;
  }

  /**
   * How well the relations joining a constraint name its query edge's phrase: the best of {@code edges}
   * (0 when one is the best-named relation, negative otherwise); 0 when the edge has no phrase.
   */
  private static double relationScore(SgragPlan plan, int queryEdge, List<EvidenceEdge> edges) {
    if (queryEdge < 0 || plan.edgeRelations() == null || plan.edgeRelations().get(queryEdge) == null) {
      return 0;
    }
    RelationPhraseMatcher.Scores s = plan.edgeRelations().get(queryEdge);
    double best = s.floor();
    for (EvidenceEdge e : edges) {
      best = Math.max(best, s.score(e.relation()));
    }
    return best;
  }

  private static int edgeIndex(QueryGraph q, int a, int b) {
    for (int i = 0; i < q.edges().size(); i++) {
      QueryGraph.Edge e = q.edges().get(i);
      if ((e.src() == a && e.dst() == b) || (e.src() == b && e.dst() == a)) {
        return i;
      }
    }
    return -1;
  }

  private Candidate candidate(
      int x, double constraintScore, double relationScore, int satisfied, int constraints, List<EvidenceEdge> ev, String typeHint) {
    double score =
        constraintScore + config.relationWeight() * relationScore + config.typeBonus() * types.score(x, typeHint)
            - config.degreePenalty() * Math.log1p(kg.degree(x));
    List<EvidenceEdge> sorted = new ArrayList<>(new LinkedHashSet<>(ev));
    sorted.sort(Comparator.comparingLong(EvidenceEdge::srcId).thenComparing(EvidenceEdge::relation).thenComparingLong(EvidenceEdge::dstId));
    return new Candidate(kg.entityId(x), kg.label(x), score, satisfied, constraints, sorted);
  }

  private List<Candidate> rank(List<Candidate> cs) {
    cs.sort(
        Comparator.comparingDouble(Candidate::score).reversed()
            .thenComparing(Candidate::label)
            .thenComparingLong(Candidate::entityId));
    return cs.size() > config.maxCandidates() ? new ArrayList<>(cs.subList(0, config.maxCandidates())) : cs;
  }

  /** The edges between a and b that satisfy query edge {@code e}: those of its relation where it names one. */
  private List<EvidenceEdge> evidence(QueryGraph.Edge e, int a, int b) {
    String r = namedRelation(e);
    List<EvidenceEdge> all = evidence(a, b);
    if (r != null) {
      all.removeIf(x -> !x.relation().equals(r));
    }
    return all;
  }

  private List<EvidenceEdge> evidence(int a, int b) {
    List<EvidenceEdge> out = new ArrayList<>();
    for (KnowledgeGraph.Edge e : kg.edgesBetween(a, b)) {
      out.add(new EvidenceEdge(kg.entityId(e.src()), kg.label(e.src()), e.relation(), kg.entityId(e.dst()), kg.label(e.dst())));
    }
    return out;
  }

  private static Map<Integer, List<PathHit>> groupByPath(List<PathHit> hits) {
    Map<Integer, List<PathHit>> m = new HashMap<>();
    for (PathHit h : hits) {
      m.computeIfAbsent(h.pathNo(), k -> new ArrayList<>()).add(h);
    }
    return m;
  }

  private static final Comparator<int[]> PATH_ORDER = Arrays::compare;
}
