package io.kgrag.core.auto;

import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.exemplar.Chain;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.method.Outcome;
import io.kgrag.core.method.QuestionAnswerer;
import io.kgrag.core.method.Trace;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.RankedAnswer;
import io.kgrag.core.qa.TypeMatcher;
import io.kgrag.core.understand.AnswerType;
import io.kgrag.core.understand.ComparisonReader;
import io.kgrag.core.understand.Mention;
import io.kgrag.core.understand.MentionLinker;
import io.kgrag.core.understand.OperationChooser;
import io.kgrag.core.understand.OperationExecutor;
import io.kgrag.core.understand.Program;
import io.kgrag.core.understand.ProgramExecutor;
import io.kgrag.core.understand.QuestionUnderstanding;
import io.kgrag.core.understand.SetOperation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code auto} for one question: the understanding's programs are executed best first; the first whose exact
 * answer set is not empty answers (a multi-constraint intersection that no node satisfies completely is kept
 * as a partial answer in case no chain fits either). The question's answer-type word ("which T", "who") is one
 * more constraint where the graph's relation names type their subjects. The whole exact set is returned, ranked: a
 * node that satisfies more constraints first, then (for intersections, where many nodes tie) the node whose
 * relations read closest to the question and to the words before each mention, less a prior on its degree. A
 * question with one confident mention and lower-case words that are labels ("male", "writer") reads as an
 * intersection when a neighbour of the mention joins two of them. Counting questions answer the set's size. The note says which program
 * decided and why.
 */
final class AutoAnswerer implements QuestionAnswerer {
  private static final int MAX_PROGRAMS = 24;
  private static final int MAX_EVIDENCE = 2_000;
  /** Words before a mention read with it when its relation is judged ("was born in" X). */
  private static final int CONTEXT_WORDS = 4;
  /**
   * Weight of how well the relations joining a tied candidate to the mentions name the words before them, against
   * what kind of thing it is and its degree (ERQA dev, Hit@1 / Hit@3: 1 gave 66.4 / 80.1 %, 2 66.4 / 81.1, 4
   * 67.2 / 80.9, 8 65.3 / 80.6; with 4 context words, where 2 and 7 gave 66.1 / 79.0 and 65.3 / 79.0).
   */
  private static final double RELATION_WEIGHT = 4;
  /**
   * The least MiniLM cosine at which a question's word reads like one of the graph's type words. On chaindev's
   * FB15k-237 part (dev) the opening words' best matches were: movies → film 0.81, musicians → music 0.74, kinds →
   * type 0.69, jobs → work 0.68, businesspeople → business 0.67, city → location 0.65 (each word embedded as written;
   * embedding the singular at 0.7 had read "job" as "work", 0.78).
   */
  private static final double TYPE_WORD_SIMILARITY = 0.75;
  /**
   * The least cosine (all-MiniLM-L6-v2) at which a head noun that names no type reads like a relation's object noun
   * ("birthplace" / "place of birth" 0.73, "language" / "in language" 0.72; "jobs" / "profession" 0.64 is below).
   * Chosen on the development sets of bench/RESULTS.md "Stop 60": 0.75 and 0.70 gave the same answers on
   * chaindev FB15k-237, opdev2 and ERQA dev; 0.70 read two more MetaQA chaindev questions.
   */
  private static final double RELATION_NOUN_SIMILARITY = 0.70;

  private final AutoContext ctx;
  private final QuestionUnderstanding understanding;
  private final EmbeddingCache cache;
  private final ProgramExecutor executor;
  private final OperationExecutor operations;
  private final Map<Integer, float[]> kindVectors = new HashMap<>();
  private final TypeMatcher types;
  private final AnswerType.Reader answerTypes;
  /** Per question: whether a node has the question's answer type (the programs tried share many candidates). */
  private final Map<Integer, Boolean> typedNodes = new HashMap<>();

  AutoAnswerer(AutoContext ctx, QuestionUnderstanding understanding, EmbeddingCache cache) {
    this.ctx = ctx;
    this.understanding = understanding;
    this.cache = cache;
    this.executor = new ProgramExecutor(ctx.graph(), ctx.walkCap());
    this.operations = new OperationExecutor(ctx.graph(), executor);
    this.types = new TypeMatcher(ctx.graph());
    this.answerTypes = new AnswerType.Reader(types, cache, TYPE_WORD_SIMILARITY, RELATION_NOUN_SIMILARITY);
  }

  @Override
  public Outcome answer(String question, Trace trace) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
    long t0 = System.nanoTime();
    typedNodes.clear();
    // a multi-constraint question whose confident mentions one node joins needs no chain; nor does one where a
    // node joins at least two of them (it explains more of the question than any chain from one mention)
    QuestionUnderstanding.Understanding u = understanding.intersection(question);
    ComparisonReader.Compared compared = understanding.compare(question, u.mentions(), executor);
    if (compared != null) {
      trace.metric("understand_nanos", System.nanoTime() - t0);
      String a = compared.answer();
      return new Outcome(new GeneratedAnswer(a, List.of(new RankedAnswer(a, compared.entityId(), 1.0)), new ArrayList<>(new LinkedHashSet<>(compared.evidence()))),
          AnswerStatus.EXACT, "auto: " + compared.describe());
    }
    QuestionUnderstanding.Scored starScored = u.programs().isEmpty() ? null : u.best();
    Program star = starScored == null ? null : starScored.program();
    AnswerType type = answerTypes.read(question, u.mentions());
    ProgramExecutor.Result starResult = star == null ? null : typed(executor.execute(star), type);
    if (starResult != null && starResult.exact() == 0 && !starResult.candidates().isEmpty()
        && corroborates(star, starResult.candidates().get(0))) {
      trace.metric("understand_nanos", System.nanoTime() - t0);
      return answer(question, trace, u, u.best(), starResult, AnswerStatus.PARTIAL, 1, top(starResult));
    }
    Program corroborating = star == null ? understanding.corroborated(question, u.mentions()) : null;
    if (corroborating != null) {
      ProgramExecutor.Result r = typed(executor.execute(corroborating), type);
      // a word that nothing in the set joins is read as no constraint, and the answer is then partial (the question may
      // have meant one that nothing meets); whether the join of all is taken is judged on the words the question has
      boolean takesJoinOfAll = understanding.takesJoinOfAll(corroborating);
      Program joined = withoutUnjoined(corroborating, r);
      boolean dropped = joined != corroborating;
      if (dropped) {
        corroborating = joined;
        r = typed(executor.execute(joined), type);
      }
      // without labelled questions one word is enough when a neighbour of the mention joins every word ("western
      // films written by X"); with them, a wording they read as a chain ("the films of X" where "film" is a tag) stays
      // one unless the words modify a noun ("the thriller movies of X": QuestionUnderstanding#corroborated)
      ProgramExecutor.Candidate best = r.exact() > 0 ? r.candidates().get(0) : null;
      boolean joinsAll = best != null && best.satisfiedCount() == corroborating.anchors().size();
      boolean ofTheKind = !type.known() || ofKind(corroborating, r, type);
      if (best != null && ofTheKind && (corroborates(corroborating, best) || (takesJoinOfAll && joinsAll))) {
        QuestionUnderstanding.Scored corroborated = understanding.scored(corroborating, question);
        trace.metric("understand_nanos", System.nanoTime() - t0);
        AnswerStatus s = joinsAll && !dropped ? AnswerStatus.EXACT : AnswerStatus.PARTIAL;
        return answer(question, trace, new QuestionUnderstanding.Understanding(question, u.mentions(), List.of(corroborated)), corroborated, r, s, 1, top(r));
      }
    }
    if (starResult == null || starResult.exact() == 0 || (type.known() && !ofKind(star, starResult, type))) {
      // the same mentions, so the same intersection program; its set may hold nothing of the kind asked for ("what
      // other films did the director of X make", where "Film" is a node the director is joined to)
      u = understanding.understand(question, u.mentions());
    }
    trace.metric("understand_nanos", System.nanoTime() - t0);
    trace.metric("programs", u.programs().size());
    if (u.programs().isEmpty()) {
      throw new QaException(AnswerStatus.UNABLE, "no entity of the graph is mentioned in the question");
    }
    long t1 = System.nanoTime();
    QuestionUnderstanding.Scored chosen = null;
    ProgramExecutor.Result result = null;
    QuestionUnderstanding.Scored partial = null;
    ProgramExecutor.Result partialResult = null;
    int tried = 0;
    QuestionUnderstanding.Scored untyped = null;
    ProgramExecutor.Result untypedResult = null;
    if (starScored != null && starResult.exact() > 0 && type.known() && !ofKind(star, starResult, type)) {
      untyped = starScored; // a chain from one mention must be of the kind asked for and explain as much to replace it
      untypedResult = starResult;
    }
    for (QuestionUnderstanding.Scored s : u.programs()) {
      if (tried++ >= MAX_PROGRAMS) {
        break;
      }
      ProgramExecutor.Result r = s.program().equals(star) ? starResult : typed(executor.execute(s.program()), type);
      if (r.exact() == 0 && s.program().hops() > 1) {
        r = typed(executor.execute(s.program(), false), type); // the chain's only way is back through where it came from
      }
      if (r.exact() > 0 && type.known() && !ofKind(s.program(), r, type)) {
        // the set has nothing of the kind the question asks for ("which countries ..." answered with films): a
        // later program whose set has is read first; this one stays the answer when none has
        if (untyped == null) {
          untyped = s;
          untypedResult = r;
        }
        continue;
      }
      if (r.exact() > 0 && untyped != null && strongAnchors(s.program()) < strongAnchors(untyped.program())) {
        continue; // of the kind asked for, but it explains fewer of the question's confident mentions
      }
      if (r.exact() > 0) {
        chosen = s;
        result = r;
        break;
      }
      if (partial == null && s.program().anchors().size() > 1 && !r.candidates().isEmpty() && r.candidates().get(0).satisfiedCount() >= 2) {
        partial = s;
        partialResult = r;
      }
    }
    trace.metric("execute_nanos", System.nanoTime() - t1);
    trace.metric("programs_tried", Math.min(tried, MAX_PROGRAMS));
    AnswerStatus status = AnswerStatus.EXACT;
    if (chosen == null && untyped != null) {
      chosen = untyped;
      result = untypedResult;
    }
    if (chosen == null) {
      if (partial == null) {
        trace.queryGraph(u.programs().get(0).program().toQueryGraph(), i -> null);
        throw new QaException(AnswerStatus.UNABLE, "no program over the question's mentions has an answer in the graph (best: " + u.programs().get(0).program().describe() + ")");
      }
      chosen = partial;
      result = partialResult;
      status = AnswerStatus.PARTIAL;
    }
    List<ProgramExecutor.Candidate> set = status == AnswerStatus.EXACT ? result.exactCandidates() : top(result);
    return answer(question, trace, u, chosen, result, status, Math.min(tried, MAX_PROGRAMS), set);
  }

  /**
   * A program's candidates (an intersection's or a chain's) with the question's answer type as one more
   * constraint: those of the type that satisfy every anchor are exact, then the others of the type, then the rest
   * (each group in its order).
   * The type is judged only where the graph's relation names say what their subjects are and some candidate
   * has the type; otherwise the result is unchanged.
   */
  private ProgramExecutor.Result typed(ProgramExecutor.Result r, AnswerType type) {
    String head = type.head();
    if (head == null || r.candidates().isEmpty()) {
      return r;
    }
    List<ProgramExecutor.Candidate> exactTyped = new ArrayList<>();
    List<ProgramExecutor.Candidate> typedRest = new ArrayList<>();
    List<ProgramExecutor.Candidate> rest = new ArrayList<>();
    for (int i = 0; i < r.candidates().size(); i++) {
      ProgramExecutor.Candidate c = r.candidates().get(i);
      boolean ok = typedNodes.computeIfAbsent(c.node(), n -> types.hasType(n, head));
      (ok ? (i < r.exact() ? exactTyped : typedRest) : rest).add(c);
    }
    if (exactTyped.isEmpty() && typedRest.isEmpty()) {
      return r;
    }
    List<ProgramExecutor.Candidate> out = new ArrayList<>(exactTyped);
    out.addAll(typedRest);
    out.addAll(rest);
    return new ProgramExecutor.Result(out, exactTyped.size(), r.truncated());
  }

  /**
   * Whether a program's exact set is of the kind asked for: some member has the type word, or, where the question
   * names what a relation calls its objects instead ("Birthplace of the director of X"), one of its chains ends by
   * walking that relation to its object.
   */
  private boolean ofKind(Program p, ProgramExecutor.Result r, AnswerType type) {
    if (!type.heads().isEmpty()) {
      return exactTyped(r, type);
    }
    if (type.objectOf().isEmpty()) {
      // "other films" with no word the graph knows for films: a chain from the topic must reach things of its kind
      if (p.anchors().size() != 1 || p.anchors().get(0).mention().nodes().length == 0) {
        return true;
      }
      java.util.BitSet topic = outgoingRelations(p.anchors().get(0).mention().nodes()[0]);
      for (int i = 0; i < r.exact(); i++) {
        if (sameKind(r.candidates().get(i).node(), topic)) {
          return true;
        }
      }
      return false;
    }
    for (Program.Anchor a : p.anchors()) {
      if (a.chain() != null) {
        Chain.Step last = a.chain().steps().get(a.chain().length() - 1);
        if (last.forward() && type.objectOf().contains(last.relation())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether a node is of another's kind where the graph names no kinds: it is the subject of at least half of the
   * relations the other is the subject of (a film of MetaQA has a director, writers, a year; a person none of these).
   */
  private boolean sameKind(int node, java.util.BitSet ofRelations) {
    java.util.BitSet theirs = outgoingRelations(node);
    int want = ofRelations.cardinality();
    theirs.and(ofRelations);
    return want > 0 && 2 * theirs.cardinality() >= want;
  }

  /** The relations a node is the subject of. */
  private java.util.BitSet outgoingRelations(int node) {
    KnowledgeGraph g = ctx.graph();
    java.util.BitSet out = new java.util.BitSet();
    for (int k = 0; k < g.entryCount(node); k++) {
      if (g.entryOutgoing(node, k)) {
        out.set(g.entryRelationIndex(node, k));
      }
    }
    return out;
  }

  /**
   * Whether some member of the result's exact set has one of the type's words ("film director": a film or a
   * director, since the phrase may run past its head noun: "which film features music by X").
   */
  private boolean exactTyped(ProgramExecutor.Result r, AnswerType type) {
    for (int i = 0; i < r.exact(); i++) {
      int node = r.candidates().get(i).node();
      for (String h : type.heads()) {
        if (h.equals(type.head()) ? typedNodes.computeIfAbsent(node, n -> types.hasType(n, h)) : types.hasType(node, h)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether a candidate that satisfies only part of an intersection still explains more of the question than a
   * chain from one mention: it joins two confident mentions, or one and {@link QuestionUnderstanding#CORROBORATING}
   * lower-case ones.
   */
  private static boolean corroborates(Program p, ProgramExecutor.Candidate c) {
    int strong = strongSatisfied(p, c);
    return strong >= 2 || (strong == 1 && c.satisfiedCount() - strong >= QuestionUnderstanding.CORROBORATING);
  }

  /**
   * The program without its weak anchors that no candidate of its exact set joins: the graph then says the word
   * constrains nothing here ("official" in "constitutional monarchies where Swedish is official" links to a
   * profession that no monarchy is joined to), and requiring it would leave the intersection unmet. The program
   * itself when every weak anchor is joined by some candidate, or when none would be.
   */
  private static Program withoutUnjoined(Program p, ProgramExecutor.Result r) {
    long joined = 0;
    for (int k = 0; k < r.exact(); k++) {
      joined |= r.candidates().get(k).satisfied();
    }
    List<Program.Anchor> kept = new ArrayList<>();
    for (int a = 0; a < p.anchors().size(); a++) {
      if (p.anchors().get(a).mention().strong() || (joined & (1L << a)) != 0) {
        kept.add(p.anchors().get(a));
      }
    }
    return kept.size() == p.anchors().size() || kept.size() == strongAnchors(p) ? p : new Program(kept, p.operation());
  }

  private static int strongAnchors(Program p) {
    int n = 0;
    for (Program.Anchor a : p.anchors()) {
      n += a.mention().strong() ? 1 : 0;
    }
    return n;
  }

  private static int strongSatisfied(Program p, ProgramExecutor.Candidate c) {
    int n = 0;
    for (int a = 0; a < p.anchors().size(); a++) {
      if (p.anchors().get(a).mention().strong() && (c.satisfied() & (1L << a)) != 0) {
        n++;
      }
    }
    return n;
  }

  private Outcome answer(
      String question, Trace trace, QuestionUnderstanding.Understanding u, QuestionUnderstanding.Scored chosen, ProgramExecutor.Result result,
      AnswerStatus status, int tried, List<ProgramExecutor.Candidate> set) {
    OperationChooser.Reading reading = understanding.operation(question, u.mentions(), chosen);
    Program program = reading.program();
    if (!program.equals(chosen.program())) {
      // the operation reads a shorter chain (the Rs of X ordered by P, rather than the Ps of X's Rs)
      ProgramExecutor.Result shorter = executor.execute(program);
      if (shorter.exact() == 0) {
        reading = new OperationChooser.Reading(chosen.program(), SetOperation.LIST, 0, chosen.utterance(), reading.operation().describe() + " had no set");
        program = chosen.program();
      } else {
        result = shorter;
        set = shorter.exactCandidates();
      }
    }
    Program shown = program;
    trace.queryGraph(program.toQueryGraph(), i -> i < shown.anchors().size() ? ids(shown.anchors().get(i).mention().nodes()) : null);
    SetOperation op = reading.operation();
    OperationExecutor.Applied applied = operations.apply(op, program, set);
    String why = String.format(Locale.ROOT, "auto: %s%s (paraphrase %.2f, vote %.2f, %d of %d programs tried; operation %+.3f over the set%s)%s",
        op.kind() == SetOperation.Kind.LIST ? "" : op.describe() + " of ", program.describe(), chosen.paraphrase(), chosen.vote(), tried,
        u.programs().size(), reading.preference(), reading.runnerUp().isEmpty() ? "" : ", next " + reading.runnerUp(),
        result.truncated() ? "; the walk hit its cap, the set may be incomplete" : "");
    if (applied.members().isEmpty()) {
      throw new QaException(AnswerStatus.UNABLE, "no member of the set passes " + op.describe() + ": " + why);
    }
    List<ProgramExecutor.Candidate> ranked = rank(question, program, applied.members());
    trace.metric("answers", ranked.size());
    KnowledgeGraph g = ctx.graph();
    List<EvidenceEdge> evidence = new ArrayList<>(new LinkedHashSet<>(evidenceOf(ranked)));
    if (applied.value() != null) {
      String n = applied.value();
      return new Outcome(new GeneratedAnswer(n, List.of(new RankedAnswer(n, 0L, 1.0)), evidence), status, why);
    }
    List<RankedAnswer> answers = new ArrayList<>();
    for (int i = 0; i < Math.min(ctx.maxAnswers(), ranked.size()); i++) {
      int node = ranked.get(i).node();
      // the members of the set the program defines tie (the set is the answer); partial ones score what they satisfy
      answers.add(new RankedAnswer(g.label(node), g.entityId(node), ranked.get(i).weight() / totalWeight(program)));
    }
    return new Outcome(new GeneratedAnswer(answers.get(0).answer(), answers, evidence), status, why);
  }

  private static double totalWeight(Program p) {
    double w = 0;
    for (Program.Anchor a : p.anchors()) {
      w += a.mention().confidence();
    }
    return w;
  }

  /** The candidates that satisfy the most constraints. */
  private static List<ProgramExecutor.Candidate> top(ProgramExecutor.Result r) {
    double best = r.candidates().get(0).weight();
    int n = 0;
    while (n < r.candidates().size() && r.candidates().get(n).weight() == best) {
      n++;
    }
    return r.candidates().subList(0, n);
  }

  /**
   * Ranks one tier of candidates: for an intersection, by what kind of thing the candidate is (its relations read
   * against the question), by how well the relation joining it to each mention names the words just before that
   * mention ("born in" X, "influenced by" Y), less a prior on its degree; for a chain, every member answers equally,
   * so by label for a stable order.
   */
  private List<ProgramExecutor.Candidate> rank(String question, Program program, List<ProgramExecutor.Candidate> set) {
    List<ProgramExecutor.Candidate> out = new ArrayList<>(set);
    KnowledgeGraph g = ctx.graph();
    if (program.anchors().size() < 2 || out.size() < 2) {
      out.sort(Comparator.comparing((ProgramExecutor.Candidate c) -> g.label(c.node())).thenComparingInt(ProgramExecutor.Candidate::node));
      return out;
    }
    // each mention with the words just before it ("born in <X>", "influenced by <X>"): what the question says joins it
    List<MentionLinker.Token> toks = MentionLinker.tokens(question);
    List<String> texts = new ArrayList<>(List.of(question));
    Map<Long, Integer> anchorOf = new HashMap<>();
    for (int a = 0; a < program.anchors().size(); a++) {
      Mention m = program.anchors().get(a).mention();
      texts.add(question.substring(toks.get(Math.max(0, m.from() - CONTEXT_WORDS)).start(), toks.get(m.to() - 1).end()));
      for (int n : m.nodes()) {
        anchorOf.putIfAbsent(g.entityId(n), a);
      }
    }
    float[][] v = cache.embed(texts);
    float[] q = v[0];
    Map<Integer, Double> score = new HashMap<>();
    for (ProgramExecutor.Candidate c : out) {
      // what kind of thing it is, and per mention the relation joining them that reads closest to the mention's words
      double s = EmbeddingCache.dot(q, kindVector(c.node()));
      Map<Integer, Double> perMention = new HashMap<>();
      long self = g.entityId(c.node());
      for (EvidenceEdge e : c.evidence()) {
        float[] rv = ctx.relationVectors().get(e.relation());
        Integer a = anchorOf.get(e.srcId() == self ? e.dstId() : e.srcId());
        if (rv != null && a != null) {
          perMention.merge(a, EmbeddingCache.dot(v[a + 1], rv), Math::max);
        }
      }
      double rel = 0;
      for (double x : perMention.values()) {
        rel += x;
      }
      score.put(c.node(), s + (perMention.isEmpty() ? 0 : RELATION_WEIGHT * rel / perMention.size()) - ctx.degreePenalty() * Math.log1p(g.degree(c.node())));
    }
    out.sort(Comparator.comparingDouble((ProgramExecutor.Candidate c) -> -c.weight())
        .thenComparing(c -> -score.get(c.node()))
        .thenComparingInt(ProgramExecutor.Candidate::node));
    return out;
  }

  /** The normalised sum of the vectors of the relations a node takes part in: what kind of thing it is. */
  private float[] kindVector(int node) {
    return kindVectors.computeIfAbsent(node, n -> {
      KnowledgeGraph g = ctx.graph();
      float[] sum = null;
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (int k = 0; k < g.entryCount(n); k++) {
        String r = g.entryRelation(n, k);
        float[] rv = ctx.relationVectors().get(r);
        if (rv == null || !seen.add(r + g.entryOutgoing(n, k))) {
          continue;
        }
        if (sum == null) {
          sum = new float[rv.length];
        }
        for (int i = 0; i < rv.length; i++) {
          sum[i] += rv[i];
        }
      }
      if (sum == null) {
        return new float[cache.embedder().dimension()];
      }
      double norm = 0;
      for (float v : sum) {
        norm += v * v;
      }
      norm = Math.sqrt(norm);
      for (int i = 0; i < sum.length; i++) {
        sum[i] /= (float) norm;
      }
      return sum;
    });
  }

  private static List<EvidenceEdge> evidenceOf(List<ProgramExecutor.Candidate> ranked) {
    List<EvidenceEdge> out = new ArrayList<>();
    for (ProgramExecutor.Candidate c : ranked) {
      for (EvidenceEdge e : c.evidence()) {
        if (out.size() >= MAX_EVIDENCE) {
          return out;
        }
        out.add(e);
      }
    }
    return out;
  }

  private long[] ids(int[] nodes) {
    long[] out = new long[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      out[i] = ctx.graph().entityId(nodes[i]);
    }
    java.util.Arrays.sort(out);
    return out;
  }
}
