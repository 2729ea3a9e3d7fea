package io.kgrag.core.understand;

import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.exemplar.Chain;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.exemplar.PatternTriple;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.qa.ClosedClassWords;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One question understanding for every method: the question's mentions are linked to the graph, candidate
 * programs are enumerated from them over the graph's {@link GraphSchema} (relation chains of one to three
 * hops from a mention; the intersection of several confident mentions' neighbourhoods), each candidate is
 * verbalised canonically from its relation names, and candidates are ranked by the sentence-embedding
 * similarity of that wording to the question with the mention masked (Wang, Berant and Liang 2015: the
 * canonical utterance that paraphrases the question best), by how confident its mentions are and, when
 * labelled questions are given, by the programs of the nearest labelled questions. The operation on the set
 * is chosen the same way ({@link OperationChooser}).
 *
 * <p>Not thread-safe: it caches the embeddings of its task.
 */
public final class QuestionUnderstanding {
  /** What replaces the topic mention in the masked question and in canonical utterances. */
  public static final String MASK = ExemplarStore.MASK;
  /** The best programs whose operation is read with them before they are ranked again. */
  private static final int OPERATION_RERANK = 8;
  /**
   * Lower-case label words that the best node of an intersection must join besides one confident mention for that
   * node to answer (partial) before the chains; {@link #corroborated} needs one word that a neighbour of the mention
   * joins with every other.
   */
  public static final int CORROBORATING = 2;

  /**
   * Settings.
   *
   * @param maxMentions most mentions tried as a chain's topic, most confident first
   * @param beam chains of each length kept to be extended by one more hop
   * @param maxHops longest chain (1 to 3)
   * @param neighbours labelled questions that vote
   * @param tau the vote's temperature
   * @param exemplarWeight weight of the labelled questions' vote against the paraphrase similarity
   * @param hopPenalty taken off a chain's score per hop beyond the first (a longer wording repeats the
   *     question's words more often without explaining more of it)
   * @param operationMargin how closely a span of the question must read like an operator's canonical phrase ("how
   *     many", "the latest") for the operation to be considered (0.66, chosen on bench/auto/opdev.py's dev set and MetaQA
   *     dev's list questions; an operation that needs a number written in the question needs 0.5)
   */
  public record Config(int maxMentions, int beam, int maxHops, int neighbours, double tau, double exemplarWeight, double hopPenalty, double operationMargin)
      implements Serializable {
    public static final Config DEFAULT = new Config(6, 16, 3, 16, 0.02, 2.0, 0.1, 0.66);

    public Config {
      if (maxMentions < 1 || beam < 1 || maxHops < 1 || maxHops > 3 || neighbours < 1 || !(tau > 0) || exemplarWeight < 0 || hopPenalty < 0) {
        throw new IllegalArgumentException("maxMentions, beam and neighbours must be >= 1, maxHops 1 to 3, tau > 0, exemplarWeight and hopPenalty >= 0");
      }
    }

    /** The same settings with {@code n} voting labelled questions. */
    public Config withNeighbours(int n) {
      return new Config(maxMentions, beam, maxHops, n, tau, exemplarWeight, hopPenalty, operationMargin);
    }
  }

  /** A candidate program with its score and the parts of the score, for the answers' notes. */
  public record Scored(Program program, double score, double paraphrase, double vote, String utterance) {}

  /** The understanding of one question: its tokens, mentions and ranked programs (best first). */
  public record Understanding(String question, List<Mention> mentions, List<Scored> programs) {
    public Scored best() {
      return programs.isEmpty() ? null : programs.get(0);
    }
  }

  private final KnowledgeGraph graph;
  private final GraphSchema schema;
  private final MentionLinker linker;
  private final EmbeddingCache cache;
  private final CanonicalVectors canonical;
  private final ExemplarStore exemplars;
  private final Map<String, String> chainOfPattern = new HashMap<>();
  private final Map<String, float[]> relationVectors;
  private final Config config;
  /** Each role's relation in words ({@link Labels#relationText}), read once: every chain's wording is built from them. */
  private final String[] roleWords;
  /** Every word of the relations' names, singular. */
  private final java.util.Set<String> relationWords = new java.util.HashSet<>();
  private final OperationChooser operations;
  private final ComparisonReader comparisons;

  /**
   * @param cache the task's cache of question texts (its embedder embeds everything)
   * @param canonical the JVM's vectors of canonical utterances
   * @param relationVectors each relation's label vector, to choose which followers of a chain are worded in a large schema
   */
  public QuestionUnderstanding(
      KnowledgeGraph graph, GraphSchema schema, MentionLinker linker, EmbeddingCache cache, CanonicalVectors canonical, Map<String, float[]> relationVectors,
      ExemplarStore exemplars, Config config) {
    this.graph = graph;
    this.schema = schema;
    this.linker = linker;
    this.cache = cache;
    this.canonical = canonical;
    this.relationVectors = relationVectors;
    this.exemplars = exemplars;
    this.config = config;
    this.roleWords = new String[schema.roles()];
    for (int r = 0; r < roleWords.length; r++) {
      roleWords[r] = Labels.relationText(schema.relation(r));
      for (String w : Labels.normalize(roleWords[r]).split(" ")) {
        relationWords.add(Labels.singular(w));
      }
    }
    this.operations = new OperationChooser(this, schema, cache, canonical, config.operationMargin());
    this.comparisons = new ComparisonReader(graph, schema, cache, canonical, config.operationMargin());
    if (exemplars != null && !exemplars.modelId().equals(cache.embedder().modelId())) {
      throw new IllegalArgumentException(
          "the labelled questions were embedded with " + exemplars.modelId() + ", the questions would be with " + cache.embedder().modelId()
              + ": load them with the run's embedder");
    }
    if (exemplars != null) {
      for (ExemplarStore.StoredPattern p : exemplars.patterns()) {
        Chain c = chainOf(p);
        if (c != null) {
          chainOfPattern.put(p.key(), c.toString());
        }
      }
    }
  }

  /**
   * The intersection of the question's confident mentions alone, when it has at least two: the cheap first
   * reading of a multi-constraint question, tried before any chain is enumerated.
   */
  public Understanding intersection(String question) {
    List<Mention> mentions = linker.link(MentionLinker.tokens(question), question);
    Program star = star(mentions);
    if (star == null) {
      return new Understanding(question, mentions, List.of());
    }
    return new Understanding(question, mentions, List.of(scoredStar(star, cache.embed(List.of(question))[0])));
  }

  /**
   * The reading of a question with one confident mention and single lower-case words that are labels ("the male
   * author influenced by X", "western films written by X"): the nodes next to the confident mention, ranked by how
   * many of the others they join too; the caller takes it when one of them joins every word (the graph, not a word
   * list, says which of those words are constraints). Null for any other question. Not yet scored: the caller
   * scores it ({@link #scored}) only when it takes it, since scoring embeds the question and the wording.
   */
  public Program corroborated(String question, List<Mention> mentions) {
    List<Mention> words = mentions;
    List<Mention> withoutNumbers = mentions.stream().filter(m -> m.strong() || !Literals.isNumber(m.label())).toList();
    if (withoutNumbers.size() < mentions.size() && operations.readsComparison(question, mentions)) {
      // "films of X before 1993": the number is a filter's bound (an operation on the chain), not a node to join
      words = withoutNumbers;
    }
    List<Program.Anchor> anchors = adjacentToAll(words);
    int strong = strongCount(anchors);
    if (strong != 1 || anchors.size() == strong) {
      return null;
    }
    anchors = anchors.stream().map(a -> a.mention().strong() ? a : new Program.Anchor(anyCase(a.mention()), null)).toList();
    if (exemplars != null) {
      // with labelled questions a single word must not override the chain they vote for ("the films of X" where
      // "film" is a tag): the caller needs two such words then, or words that modify the noun after them ("the
      // thriller movies X wrote"), which narrow what is asked for rather than name it
      List<Program.Anchor> modifiers = modifiers(question, anchors);
      if (modifiers.size() > strong) {
        return new Program(modifiers, Program.Operation.LIST);
      }
      if (anchors.size() - strong < CORROBORATING) {
        return null;
      }
    }
    return new Program(anchors, Program.Operation.LIST);
  }

  /**
   * A lower-case word in running text says nothing about case: every node of its label reads it ("musical" the tag
   * and "Musical" the genre), so the graph says which joins.
   */
  private Mention anyCase(Mention m) {
    int[] all = graph.nodesWithLabelKey(StableIds.labelKey(m.label()));
    return all.length > m.nodes().length ? new Mention(m.from(), m.to(), m.text(), m.label(), all, m.confidence()) : m;
  }

  /**
   * Whether the caller takes a {@link #corroborated} program's best node when it joins every anchor: always without
   * labelled questions; with them, for a program of modifying words ({@link #modifiers}, fewer than {@link
   * #CORROBORATING} lower-case words), which the graph then confirms.
   */
  public boolean takesJoinOfAll(Program corroborating) {
    return exemplars == null || corroborating.anchors().size() - strongCount(corroborating.anchors()) < CORROBORATING;
  }

  /**
   * The confident anchors and the lower-case one-word anchors in the position of an English pre-noun modifier: the
   * next word of the question is a content word (not a closed-class word, a number or a participle), and neither
   * it nor the word before belongs to a confident mention, and neither word is a word of a relation's name
   * ("thriller" in "the thriller movies of X"; not "films" in "the films X directed" or "the films of X", "made" in
   * "X made movies", "primary" in "the primary languages of X" or "languages" in "the languages spoken in X").
   */
  private List<Program.Anchor> modifiers(String question, List<Program.Anchor> anchors) {
    List<MentionLinker.Token> toks = MentionLinker.tokens(question);
    List<Program.Anchor> out = new ArrayList<>();
    for (Program.Anchor a : anchors) {
      Mention m = a.mention();
      if (m.strong()) {
        out.add(a);
        continue;
      }
      int next = m.to();
      if (m.to() - m.from() != 1 || next >= toks.size()) {
        continue;
      }
      String w = toks.get(next).norm();
      int before = m.from() - 1;
      // inside a noun phrase: neither word beside it belongs to a name ("X made movies" is a verb after a name)
      boolean besideName = anchors.stream().anyMatch(o -> o.mention().strong()
          && ((o.mention().from() <= next && next < o.mention().to()) || (o.mention().from() <= before && before < o.mention().to())));
      // nor is either word one of a relation's name ("the primary languages of X": it modifies or is what a
      // relation gives, which no node stands for)
      if (!besideName && !ClosedClassWords.contains(w) && !Character.isDigit(w.codePointAt(0)) && !StarQueryGraph.verbLike(w)
          && !relationWords.contains(Labels.singular(w)) && !relationWords.contains(Labels.singular(toks.get(m.from()).norm()))) {
        out.add(a);
      }
    }
    return out;
  }

  /** An intersection ({@link #corroborated}) scored as {@link #intersection} scores one. */
  public Scored scored(Program star, String question) {
    return scoredStar(star, cache.embed(List.of(question))[0]);
  }

  /** An intersection scored by how many mentions it joins and how close its wording reads to the question. */
  private Scored scoredStar(Program star, float[] question) {
    String u = starUtterance(star);
    double sim = EmbeddingCache.dot(question, canonical.of(List.of(u), cache.embedder())[0]);
    // several confident mentions that one node joins explain more of the question than any one chain
    return new Scored(star, 1.0 + star.anchors().size() + sim, sim, 0, u);
  }

  private static int strongCount(List<Program.Anchor> anchors) {
    int strong = 0;
    for (Program.Anchor a : anchors) {
      strong += a.mention().strong() ? 1 : 0;
    }
    return strong;
  }

  /** Whether labelled questions vote. */
  public boolean hasExemplars() {
    return exemplars != null;
  }

  public Understanding understand(String question) {
    return understand(question, linker.link(MentionLinker.tokens(question), question));
  }

  /** Every program over {@code mentions}, the question's mentions already linked (by {@link #intersection}). */
  public Understanding understand(String question, List<Mention> mentions) {
    List<Scored> out = new ArrayList<>();
    Program star = star(mentions);
    // a confident mention is the topic when there is one: single lower-case words that happen to be labels are
    // tried only when nothing better is mentioned
    List<Mention> topics = new ArrayList<>();
    boolean strong = !mentions.isEmpty() && mentions.get(0).strong();
    for (Mention m : mentions) {
      if (topics.size() < config.maxMentions() && (m.strong() || !strong)) {
        topics.add(m);
      }
    }
    // the set is read without the words an operator reads ("how many", "the latest"): they would pull the chain
    // and the labelled questions' vote towards whatever they happen to resemble
    List<String> operatorWords = operations.operatorWords(question, mentions);
    List<String> texts = new ArrayList<>();
    for (Mention m : topics) {
      texts.add(without(mask(question, m), operatorWords));
    }
    if (star != null) {
      texts.add(question);
    }
    float[][] mv = cache.embed(texts); // one model call for the question's own texts
    for (int i = 0; i < topics.size(); i++) {
      out.addAll(chains(topics.get(i), mv[i]));
    }
    if (star != null) {
      out.add(scoredStar(star, mv[topics.size()]));
    }
    out.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparing(s -> s.program().describe()));
    return new Understanding(question, mentions, withOperations(question, mentions, out));
  }

  /**
   * The best programs read together with their operation: a program whose operation the question asks for scores
   * what its operation's wording explains beyond the set's ("how many Rs does X have" prefers the set that
   * counting reads best, not the chain whose plain wording happens to be closest).
   */
  private List<Scored> withOperations(String question, List<Mention> mentions, List<Scored> ranked) {
    List<Scored> out = new ArrayList<>(ranked);
    boolean changed = false;
    for (int i = 0; i < Math.min(OPERATION_RERANK, out.size()); i++) {
      Scored s = out.get(i);
      OperationChooser.Reading r = operations.choose(question, mentions, s);
      if (r.operation().kind() != SetOperation.Kind.LIST && r.preference() > 0) {
        out.set(i, new Scored(s.program(), s.score() + r.preference(), s.paraphrase(), s.vote(), s.utterance()));
        changed = true;
      }
    }
    if (changed) {
      out.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparing(s -> s.program().describe()));
    }
    return out;
  }

  /**
   * What is done with the chosen set ({@link OperationChooser}): listed, counted, ordered or filtered by a numeric
   * property, its most frequent members, or arithmetic with its size.
   */
  public OperationChooser.Reading operation(String question, List<Mention> mentions, Scored set) {
    return operations.choose(question, mentions, set);
  }

  /**
   * The comparison of two mentioned entities the question asks for ({@link ComparisonReader}), or null; the sets
   * compared are walked by {@code executor}.
   */
  public ComparisonReader.Compared compare(String question, List<Mention> mentions, ProgramExecutor executor) {
    return comparisons.compare(question, mentions, () -> understand(question, mentions).programs(), executor);
  }

  /** "Adjacent by any relation" anchors of the non-overlapping mentions, in their order (at most 63). */
  static List<Program.Anchor> adjacentToAll(List<Mention> mentions) {
    List<Program.Anchor> anchors = new ArrayList<>();
    List<Mention> taken = new ArrayList<>();
    for (Mention m : mentions) {
      if (taken.stream().noneMatch(m::overlaps) && anchors.size() < 63) {
        taken.add(m);
        anchors.add(new Program.Anchor(m, null));
      }
    }
    return anchors;
  }

  /** The graph questions are understood over. */
  KnowledgeGraph graph() {
    return graph;
  }

  /**
   * The intersection of the non-overlapping mentions (most confident first), when at least two are confident:
   * the confident ones are required, the others only rank.
   */
  private static Program star(List<Mention> mentions) {
    List<Program.Anchor> anchors = adjacentToAll(mentions);
    return strongCount(anchors) >= 2 ? new Program(anchors, Program.Operation.LIST) : null;
  }

  /** Beam search over chains from the mention's nodes: the first hop from the roles they have, later hops by the schema. */
  private List<Scored> chains(Mention m, float[] maskedVector) {
    Map<String, Double> votes = votes(maskedVector);
    double bestVote = votes.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    // a chain's prefixes carry its vote, so the beam keeps the first hops of a voted chain
    Map<String, Double> prefixVotes = new HashMap<>();
    votes.forEach((path, v) -> {
      String[] steps = path.split("/");
      for (int i = 1; i <= steps.length; i++) {
        prefixVotes.merge(String.join("/", java.util.Arrays.copyOf(steps, i)), v, Double::sum);
      }
    });
    double[] similarity = new double[schema.roles()]; // each role's relation against the question, once
    for (int r = 0; r < similarity.length; r++) {
      similarity[r] = relationSimilarity(maskedVector, r);
    }
    BitSet first = new BitSet(schema.roles());
    for (int n : m.nodes()) {
      for (int k = 0; k < graph.entryCount(n); k++) {
        first.set(schema.role(graph.entryRelation(n, k), graph.entryOutgoing(n, k)));
      }
    }
    List<Scored> all = new ArrayList<>();
    List<Integer> firstRoles = new ArrayList<>();
    for (int r = first.nextSetBit(0); r >= 0; r = first.nextSetBit(r + 1)) {
      firstRoles.add(r);
    }
    if (firstRoles.size() > 4 * config.beam()) {
      firstRoles.sort(Comparator.comparingDouble((Integer r) -> -similarity[r]).thenComparingInt(r -> r));
      firstRoles = firstRoles.subList(0, 4 * config.beam());
    }
    List<int[]> frontier = new ArrayList<>();
    for (int r : firstRoles) {
      frontier.add(new int[] {r});
    }
    for (int hop = 1; hop <= config.maxHops() && !frontier.isEmpty(); hop++) {
      List<String> utterances = new ArrayList<>(frontier.size());
      for (int[] roles : frontier) {
        utterances.add(utterance(roles));
      }
      float[][] uv = canonical.of(utterances, cache.embedder());
      List<Scored> level = new ArrayList<>();
      for (int i = 0; i < frontier.size(); i++) {
        Chain chain = schema.chain(frontier.get(i));
        double sim = EmbeddingCache.dot(maskedVector, uv[i]);
        double vote = bestVote > 0 ? votes.getOrDefault(chain.toString(), 0.0) / bestVote : 0;
        double score = sim + config.exemplarWeight() * vote + 0.5 * m.confidence() - config.hopPenalty() * (hop - 1);
        level.add(new Scored(new Program(List.of(new Program.Anchor(m, chain)), Program.Operation.LIST), score, sim, vote, utterances.get(i)));
      }
      all.addAll(level);
      if (hop == config.maxHops()) {
        break;
      }
      List<Scored> beam = new ArrayList<>(level);
      beam.sort(Comparator.comparingDouble((Scored s) -> -(s.score() + config.exemplarWeight() * prefixVotes.getOrDefault(s.program().anchors().get(0).path(), 0.0) / Math.max(bestVote, 1e-9)))
          .thenComparing(s -> s.program().key()));
      List<int[]> next = new ArrayList<>();
      for (Scored s : beam.subList(0, Math.min(config.beam(), beam.size()))) {
        int[] roles = schema.roles(s.program().anchors().get(0).chain());
        int last = roles[roles.length - 1];
        List<Integer> followers = new ArrayList<>();
        for (int r = 0; r < schema.roles(); r++) {
          if (schema.canFollow(last, r)) {
            followers.add(r);
          }
        }
        if (followers.size() > config.beam()) {
          // a large schema: only the followers whose relation reads closest to the question are worded
          followers.sort(Comparator.comparingDouble((Integer r) -> -similarity[r]).thenComparingInt(r -> r));
          followers = followers.subList(0, config.beam());
        }
        for (int r : followers) {
          int[] longer = java.util.Arrays.copyOf(roles, roles.length + 1);
          longer[roles.length] = r;
          next.add(longer);
        }
      }
      frontier = next;
    }
    return all;
  }

  private double relationSimilarity(float[] question, int role) {
    float[] v = relationVectors.get(schema.relation(role));
    return v == null ? 0 : EmbeddingCache.dot(question, v);
  }

  /** The labelled questions' vote for each chain (its SPARQL path), from the masked question's neighbours. */
  private Map<String, Double> votes(float[] maskedVector) {
    Map<String, Double> out = new LinkedHashMap<>();
    if (exemplars == null) {
      return out;
    }
    for (ExemplarStore.Vote v : exemplars.vote(maskedVector, 1, config.neighbours(), config.tau())) {
      String chain = chainOfPattern.get(v.pattern().key());
      if (chain != null) {
        out.merge(chain, v.score(), Double::sum);
      }
    }
    return out;
  }

  /**
   * The canonical wording of a chain from the masked topic, built from the inside out: a step along an edge
   * appends the relation's words ("X directed by"), a step against it puts them first ("starred actors X");
   * {@code ^starred_actors/directed_by} → "starred actors X directed by". Of four wordings tried on a sample
   * of MetaQA dev without labelled questions (1 in 40), this one read the most chains right (69.6 / 51.1 /
   * 15.1 % Hit@1 at 1 / 2 / 3 hops, against 67.2 / 25.8 / 12.3 % for "the directed by of what has starred
   * actors X").
   */
  String utterance(int[] roles) {
    String u = MASK;
    for (int r : roles) {
      String words = roleWords[r];
      u = schema.forward(r) ? u + " " + words : words + " " + u;
    }
    return u;
  }

  private static String starUtterance(Program star) {
    StringBuilder b = new StringBuilder("what is related to");
    for (int i = 0; i < star.anchors().size(); i++) {
      b.append(i == 0 ? " " : i == star.anchors().size() - 1 ? " and " : ", ").append(star.anchors().get(i).mention().label());
    }
    return b.toString();
  }

  /** {@code text} without the first occurrence of each of {@code words} (whole words, any case). */
  static String without(String text, List<String> words) {
    String out = text;
    for (String w : words) {
      out = java.util.regex.Pattern.compile("(?iu)(?<![\\p{L}\\p{N}])" + java.util.regex.Pattern.quote(w) + "(?![\\p{L}\\p{N}])").matcher(out).replaceFirst("");
    }
    return out.replaceAll("\\s+", " ").strip();
  }

  /** The question with the mention's characters replaced by the mask. */
  static String mask(String question, Mention m) {
    List<MentionLinker.Token> toks = MentionLinker.tokens(question);
    int start = toks.get(m.from()).start();
    int end = toks.get(m.to() - 1).end();
    return (question.substring(0, start) + MASK + question.substring(end)).replaceAll("\\s+", " ").strip();
  }

  /** The chain of a one-mention pattern whose triples lead from the mention to the answer, or null. */
  static Chain chainOf(ExemplarStore.StoredPattern p) {
    if (p.mentions() != 1) {
      return null;
    }
    List<PatternTriple> left = new ArrayList<>(p.triples());
    String at = "[0]";
    List<Chain.Step> steps = new ArrayList<>();
    while (!left.isEmpty()) {
      PatternTriple next = null;
      for (PatternTriple t : left) {
        if (t.head().equals(at) || t.tail().equals(at)) {
          next = t;
          break;
        }
      }
      if (next == null || PatternTriple.ANY_RELATION.equals(next.relation())) {
        return null;
      }
      boolean forward = next.head().equals(at);
      steps.add(new Chain.Step(next.relation(), forward));
      at = forward ? next.tail() : next.head();
      left.remove(next);
    }
    return at.equals(p.answer()) && !steps.isEmpty() ? new Chain(steps) : null;
  }
}
