package io.kgrag.core.exemplar;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.QueryGraphExtractor;
import io.kgrag.core.qa.embedded.Gazetteer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SimGRAG's query-to-pattern without an LLM, by example: the question's mention is found as SG-RAG's
 * embedded parser finds it (token spans that equal a graph label after case, accent and punctuation
 * folding), the question is embedded with that mention masked, its nearest exemplars vote for a relation
 * pattern ({@link ExemplarStore#vote}), and the pattern is instantiated with the mention.
 *
 * <p>A question usually holds several label spans ("what movies did Tom Hanks star in": "Tom Hanks", and
 * "star" is a film too). Every span is tried as the mention (spans inside a longer span are not); the
 * masking whose nearest exemplar is most similar wins, because masking the real mention turns the question
 * into a template the exemplars share ("what movies did X star in"). {@link #propose} returns the winning
 * masking's patterns and then the others', best first, for retrieval to try in order (an actor has no
 * {@code directed_by} edge, so a wrong pattern finds no subgraph and the next one is tried).
 *
 * <p>Not thread-safe (it caches the question embeddings of its task).
 */
public final class PatternByExample implements QueryGraphExtractor {
  private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+");
  private static final int CACHE = 50_000;

  /**
   * @param neighbours exemplar texts that vote
   * @param tau the vote's temperature τ (smaller: the nearest text counts more)
   * @param minSimilarity least cosine of the nearest exemplar for a pattern to be proposed
   * @param maxSpans most label spans tried as the mention, longest first
   * @param alternatives most patterns proposed
   */
  public record Config(int neighbours, double tau, double minSimilarity, int maxSpans, int alternatives) implements java.io.Serializable {
    public static final Config DEFAULT = new Config(16, 0.02, 0.8, 8, 4);

    public Config {
      if (neighbours < 1 || maxSpans < 1 || alternatives < 1 || !(tau > 0)) {
        throw new IllegalArgumentException("neighbours, maxSpans and alternatives must be >= 1 and tau > 0");
      }
    }
  }

  /** A proposed pattern: the query graph, the masked text it was voted for, and the vote. */
  public record Proposal(QueryGraph pattern, String maskedQuestion, double similarity, double score, String patternKey) {}

  private record Span(int from, int to, int tokens, String label) {}

  private final Gazetteer gazetteer;
  private final ExemplarStore store;
  private final Embedder embedder;
  private final Config config;
  private final EmbeddingCache cache;

  public PatternByExample(Gazetteer gazetteer, ExemplarStore store, Embedder embedder, Config config) {
    this.gazetteer = gazetteer;
    this.store = store;
    this.embedder = embedder;
    this.config = config;
    this.cache = new EmbeddingCache(embedder, CACHE);
    if (!store.modelId().equals(embedder.modelId())) {
      throw new IllegalArgumentException(
          "the exemplars were embedded with " + store.modelId() + " but questions would be embedded with " + embedder.modelId());
    }
  }

  /** The best proposal's pattern. */
  @Override
  public QueryGraph extract(String question) {
    List<Proposal> ps = propose(question);
    if (ps.isEmpty()) {
      throw new QaException(AnswerStatus.UNABLE, "no exemplar pattern fits the question (no masked mention reaches cosine " + config.minSimilarity() + ")");
    }
    return ps.get(0).pattern();
  }

  /**
   * Patterns for {@code question}, best first; empty when the question mentions no graph label or no
   * masking comes within {@link Config#minSimilarity} of an exemplar.
   */
  public List<Proposal> propose(String question) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
    List<List<Span>> maskings = maskings(spans(question));
    if (maskings.isEmpty()) {
      return List.of();
    }
    List<String> texts = new ArrayList<>();
    for (List<Span> m : maskings) {
      texts.add(mask(question, m));
    }
    // a masking that gives an exemplar's text exactly needs no embedding, and the others cannot beat it
    List<List<Span>> exact = new ArrayList<>();
    List<String> exactTexts = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      if (store.vectorOf(texts.get(i)) != null) {
        exact.add(maskings.get(i));
        exactTexts.add(texts.get(i));
      }
    }
    float[][] vectors;
    if (!exact.isEmpty()) {
      maskings = exact;
      texts = exactTexts;
      vectors = new float[texts.size()][];
      for (int i = 0; i < vectors.length; i++) {
        vectors[i] = store.vectorOf(texts.get(i));
      }
    } else {
      vectors = cache.embed(texts);
    }
    record Scored(int masking, ExemplarStore.Vote vote) {}
    List<Scored> all = new ArrayList<>();
    double[] best = new double[maskings.size()];
    for (int i = 0; i < maskings.size(); i++) {
      List<ExemplarStore.Vote> votes = store.vote(vectors[i], maskings.get(i).size(), config.neighbours(), config.tau());
      best[i] = votes.isEmpty() ? -1 : votes.get(0).bestSimilarity();
      for (ExemplarStore.Vote v : votes) {
        all.add(new Scored(i, v));
      }
    }
    // maskings by their nearest exemplar, then each masking's patterns by vote
    all.sort(
        Comparator.<Scored>comparingDouble(s -> -best[s.masking()])
            .thenComparingInt(Scored::masking)
            .thenComparingDouble(s -> -s.vote().score()));
    List<Proposal> out = new ArrayList<>();
    for (Scored s : all) {
      if (out.size() >= config.alternatives()) {
        break;
      }
      if (best[s.masking()] < config.minSimilarity()) {
        continue;
      }
      QueryGraph g = instantiate(s.vote().pattern(), maskings.get(s.masking()));
      out.add(new Proposal(g, texts.get(s.masking()), best[s.masking()], s.vote().score(), s.vote().pattern().key()));
    }
    return out;
  }

  /** The pattern with {@code [i]} bound to the i-th masked span's label, unknowns as unknown nodes. */
  static QueryGraph instantiate(ExemplarStore.StoredPattern p, List<Span> spans) {
    QueryGraph.Builder b = QueryGraph.builder();
    Map<String, Integer> ids = new HashMap<>();
    for (PatternTriple t : p.triples()) {
      for (String ref : new String[] {t.head(), t.tail()}) {
        if (!ids.containsKey(ref)) {
          ids.put(ref, ref.startsWith("[") ? b.entity(spans.get(Integer.parseInt(ref.substring(1, ref.length() - 1))).label()) : b.unknown(null));
        }
      }
    }
    for (PatternTriple t : p.triples()) {
      b.edge(ids.get(t.head()), ids.get(t.tail()), t.relation().equals("?") ? null : t.relation());
    }
    b.target(ids.get(p.answer()));
    return b.build();
  }

  /** Token spans equal to a graph label: the longest at each start, none inside another, longest first. */
  List<Span> spans(String q) {
    List<int[]> toks = new ArrayList<>();
    List<String> norms = new ArrayList<>();
    Matcher m = TOKEN.matcher(q);
    while (m.find()) {
      String norm = Labels.normalize(m.group());
      if (!norm.isEmpty()) {
        toks.add(new int[] {m.start(), m.end()});
        norms.add(norm);
      }
    }
    List<Span> found = new ArrayList<>();
    for (int i = 0; i < toks.size(); i++) {
      for (int j = Math.min(toks.size(), i + gazetteer.maxTokens()); j > i; j--) {
        String label = gazetteer.lookup(String.join(" ", norms.subList(i, j)));
        if (label != null) {
          found.add(new Span(toks.get(i)[0], toks.get(j - 1)[1], j - i, label));
          break;
        }
      }
    }
    List<Span> out = new ArrayList<>();
    for (Span s : found) {
      boolean inside = false;
      for (Span o : found) {
        if (o != s && o.from() <= s.from() && o.to() >= s.to() && o.tokens() > s.tokens()) {
          inside = true;
          break;
        }
      }
      if (!inside) {
        out.add(s);
      }
    }
    out.sort(Comparator.comparingInt(Span::tokens).reversed().thenComparingInt(Span::from));
    return out.subList(0, Math.min(out.size(), config.maxSpans()));
  }

  /** Sets of non-overlapping spans to mask, one span each, and more when exemplars have more mentions. */
  private List<List<Span>> maskings(List<Span> spans) {
    List<List<Span>> out = new ArrayList<>();
    for (Span s : spans) {
      out.add(List.of(s));
    }
    if (store.maxMentions() >= 2) {
      for (int i = 0; i < spans.size(); i++) {
        for (int j = 0; j < spans.size(); j++) {
          Span a = spans.get(i);
          Span b = spans.get(j);
          if (a.to() <= b.from()) {
            out.add(List.of(a, b));
          }
        }
      }
    }
    return out;
  }

  /** The question with each span (in text order) replaced by the mask, whitespace collapsed. */
  static String mask(String q, List<Span> spans) {
    StringBuilder b = new StringBuilder();
    int at = 0;
    for (Span s : spans) {
      b.append(q, at, s.from()).append(ExemplarStore.MASK);
      at = s.to();
    }
    b.append(q.substring(at));
    return b.toString().replaceAll("\\s+", " ").strip();
  }
}
