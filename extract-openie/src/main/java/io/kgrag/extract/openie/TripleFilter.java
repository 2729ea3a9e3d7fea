package io.kgrag.extract.openie;

import io.kgrag.core.text.extract.ExtractedEntity;
import io.kgrag.core.text.extract.ExtractedTriple;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Turns OpenIE's raw triples and NER's mentions for a chunk into what a question-answering graph can use.
 * Plain Java over a small model of the annotated sentences, so it is tested without CoreNLP.
 *
 * <p>OpenIE emits, per clause, many overlapping variants with long arguments ("Journal; is; peer reviewed
 * journal published monthly by ..."). The filter
 *
 * <ol>
 *   <li>trims leading determiners from both arguments;
 *   <li>anchors each argument: one that lies inside an entity mention becomes the whole mention ("Journal" in
 *       "Journal of Mathematical Physics"), one that is a proper-noun phrase stays as it is (both rank as
 *       specific), one that contains a whole mention stays as it is (ranks lower); pronouns, ordinals, sets
 *       and durations anchor nothing;
 *   <li>rejects triples with an unanchored argument or a confidence below the minimum, with the reason;
 *   <li>keeps, of the variants of one clause (same sentence and relation, overlapping subject tokens and
 *       overlapping object tokens), the most specific: best anchored, then most confident, then fewest
 *       tokens;
 *   <li>collapses duplicates across the chunk (case-insensitive subject, relation, object), keeping the
 *       highest confidence and the first sentence as the description.
 * </ol>
 *
 * With {@code titleAntecedent}, a pronoun argument ("He", "it") or a definite description whose noun is
 * in the chunk's title ("The journal" in a passage titled "Journal of Mathematical Physics") stands for the
 * title (without a trailing parenthesis such as "(film)"), provided the title occurs in the chunk's text:
 * encyclopaedic passages are about their title, and without it most of their sentences give nothing. This
 * is a heuristic, not coreference resolution; it is off when the title is empty or absent from the text.
 *
 * <p>Entities are the NER mentions (name, type, the sentence as description) and the proper-noun arguments
 * of kept triples that no mention names (type empty).
 */
public final class TripleFilter {
  /** Mention types that name no entity worth a node. */
  static final Set<String> IGNORED_TYPES = Set.of("ORDINAL", "SET", "DURATION");

  private static final Set<String> PRONOUN_TAGS = Set.of("PRP", "PRP$", "WP", "WP$", "EX");
  private static final Set<String> DETERMINER_TAGS = Set.of("DT", "PDT");
  private static final Set<String> PROPER_TAGS = Set.of("NNP", "NNPS");
  private static final Set<String> PROPER_INNER_TAGS = Set.of("NNP", "NNPS", "IN", "CC", "DT", "POS", "CD", "HYPH");
  private static final Set<String> NO_SPACE_BEFORE = Set.of(",", ".", "'s", "'", "n't", "%", ")", ":", ";", "?", "!");

  /** A token: its 1-based index in the sentence, its text and its part-of-speech tag. */
  public record Token(int index, String word, String tag) {
    public Token {
      Objects.requireNonNull(word, "word");
      tag = tag == null ? "" : tag;
    }
  }

  /** An NER mention over tokens {@code [begin, end)} (1-based sentence indices), with its text as written. */
  public record Mention(String text, String type, int begin, int end) {
    public Mention {
      Objects.requireNonNull(text, "text");
      type = type == null ? "" : type;
    }
  }

  /** One of OpenIE's triples: argument tokens (possibly not contiguous), relation phrase, confidence. */
  public record Candidate(List<Token> subject, String relation, List<Token> object, double confidence) {
    public Candidate {
      subject = List.copyOf(subject);
      object = List.copyOf(object);
      Objects.requireNonNull(relation, "relation");
    }
  }

  /**
   * An annotated sentence.
   *
   * @param number 1-based position in the chunk (used in rejection reasons)
   * @param text the sentence as written (becomes the description of what is read from it)
   * @param tokens its tokens
   * @param mentions its NER mentions
   * @param candidates OpenIE's triples for it (empty when it was not parsed)
   */
  public record Sentence(int number, String text, List<Token> tokens, List<Mention> mentions, List<Candidate> candidates) {
    public Sentence {
      Objects.requireNonNull(text, "text");
      tokens = List.copyOf(tokens);
      mentions = List.copyOf(mentions);
      candidates = List.copyOf(candidates);
    }
  }

  /** What the filter kept, and why it rejected the rest. */
  public record Result(List<ExtractedEntity> entities, List<ExtractedTriple> triples, List<String> rejected) {}

  private static final Set<String> TITLE_PRONOUNS = Set.of("he", "she", "it", "they", "him", "her", "them");
  private static final Set<String> DESCRIPTION_DETERMINERS = Set.of("the", "this");

  private final double minConfidence;
  private final int maxRejectedPerSentence;
  private final boolean titleAntecedent;

  /**
   * @param minConfidence triples OpenIE scores below this are rejected
   * @param maxRejectedPerSentence rejection reasons listed per sentence; the rest are counted in one line
   * @param titleAntecedent let pronouns and "the &lt;title noun&gt;" stand for the chunk's title
   */
  public TripleFilter(double minConfidence, int maxRejectedPerSentence, boolean titleAntecedent) {
    if (!(minConfidence >= 0 && minConfidence <= 1)) {
      throw new IllegalArgumentException("minConfidence must be in [0, 1], got " + minConfidence);
    }
    if (maxRejectedPerSentence < 0) {
      throw new IllegalArgumentException("maxRejectedPerSentence must be >= 0, got " + maxRejectedPerSentence);
    }
    this.minConfidence = minConfidence;
    this.maxRejectedPerSentence = maxRejectedPerSentence;
    this.titleAntecedent = titleAntecedent;
  }

  /** Entities, kept triples and rejection reasons of one chunk's sentences, with no title. */
  public Result apply(List<Sentence> sentences) {
    return apply("", "", sentences);
  }

  /**
   * Entities, kept triples and rejection reasons of one chunk's sentences.
   *
   * @param title the chunk's document title (may be empty)
   * @param chunkText the chunk's text (the title is used as an antecedent only when it occurs in it)
   */
  public Result apply(String title, String chunkText, List<Sentence> sentences) {
    Antecedent antecedent = titleAntecedent ? Antecedent.of(title, chunkText, sentences) : null;
    Map<String, ExtractedEntity> entities = new LinkedHashMap<>();
    Map<String, ExtractedTriple> triples = new LinkedHashMap<>();
    List<String> rejected = new ArrayList<>();
    Set<String> mentionNames = new HashSet<>();
    for (Sentence s : sentences) {
      for (Mention m : usableMentions(s)) {
        mentionNames.add(norm(m.text()));
        entities.putIfAbsent(norm(m.text()) + "\t" + m.type(), new ExtractedEntity(m.text(), m.type(), s.text()));
      }
    }
    for (Sentence s : sentences) {
      List<Scored> accepted = new ArrayList<>();
      List<String> reasons = new ArrayList<>();
      Set<String> seenReasons = new HashSet<>();
      List<Mention> mentions = usableMentions(s);
      for (Candidate c : s.candidates()) {
        Anchor subject = anchor(trim(c.subject()), s, mentions, antecedent);
        Anchor object = anchor(trim(c.object()), s, mentions, antecedent);
        String relation = c.relation().trim();
        String why = null;
        if (relation.isEmpty()) {
          why = "empty relation";
        } else if (subject == null) {
          why = "subject '" + text(c.subject()) + "' is neither an entity mention nor a proper noun";
        } else if (object == null) {
          why = "object '" + text(c.object()) + "' is neither an entity mention nor a proper noun";
        } else if (c.confidence() < minConfidence) {
          why = "confidence " + c.confidence() + " below openie.min-confidence " + minConfidence;
        } else if (norm(subject.text()).equals(norm(object.text()))) {
          why = "subject and object are the same entity";
        }
        if (why != null) {
          String line =
              "sentence " + s.number() + ": (" + text(c.subject()) + "; " + relation + "; " + text(c.object()) + "): " + why;
          if (seenReasons.add(line)) {
            reasons.add(line);
          }
          continue;
        }
        accepted.add(new Scored(c, subject, object, relation));
      }
      accepted.sort(Scored.BEST_FIRST);
      List<Scored> kept = new ArrayList<>();
      for (Scored a : accepted) {
        boolean variant = false;
        for (Scored k : kept) {
          if (k.sameClause(a)) {
            variant = true;
            break;
          }
        }
        if (!variant) {
          kept.add(a);
        }
      }
      for (Scored k : kept) {
        String key = norm(k.subject.text()) + "\t" + norm(k.relation) + "\t" + norm(k.object.text());
        ExtractedTriple t =
            new ExtractedTriple(k.subject.text(), k.relation, k.object.text(), s.text(), k.candidate.confidence());
        ExtractedTriple before = triples.get(key);
        if (before == null) {
          triples.put(key, t);
        } else if (t.confidence() > before.confidence()) {
          triples.put(key, new ExtractedTriple(before.subject(), before.relation(), before.object(), before.description(), t.confidence()));
        }
        for (Anchor a : List.of(k.subject, k.object)) {
          if (a.proper && !mentionNames.contains(norm(a.text()))) {
            entities.putIfAbsent(norm(a.text()) + "\t", new ExtractedEntity(a.text(), "", s.text()));
          }
        }
      }
      int shown = Math.min(reasons.size(), maxRejectedPerSentence);
      rejected.addAll(reasons.subList(0, shown));
      if (reasons.size() > shown) {
        rejected.add("sentence " + s.number() + ": " + (reasons.size() - shown) + " more triples rejected for the same reasons");
      }
    }
    return new Result(List.copyOf(entities.values()), List.copyOf(triples.values()), rejected);
  }

  /** Mentions that can name an entity: not pronouns, not ordinals, sets or durations. */
  static List<Mention> usableMentions(Sentence s) {
    List<Mention> out = new ArrayList<>();
    for (Mention m : s.mentions()) {
      if (IGNORED_TYPES.contains(m.type()) || m.text().isBlank()) {
        continue;
      }
      boolean pronoun = true;
      for (Token t : s.tokens()) {
        if (t.index() >= m.begin() && t.index() < m.end() && !PRONOUN_TAGS.contains(t.tag())) {
          pronoun = false;
          break;
        }
      }
      if (!pronoun) {
        out.add(m);
      }
    }
    return out;
  }

  /** The argument without its leading determiners ("the United States" → "United States"). */
  static List<Token> trim(List<Token> arg) {
    int i = 0;
    while (i < arg.size() - 1 && DETERMINER_TAGS.contains(arg.get(i).tag())) {
      i++;
    }
    return arg.subList(i, arg.size());
  }

  /** How an argument is tied to an entity, or null when it is not. */
  static Anchor anchor(List<Token> arg, Sentence s, List<Mention> mentions, Antecedent antecedent) {
    if (arg.isEmpty()) {
      return null;
    }
    Set<Integer> idx = indices(arg);
    if (antecedent != null && antecedent.standsFor(arg, s.tokens())) {
      return new Anchor(antecedent.name(), 2, true, idx);
    }
    boolean allPronouns = arg.stream().allMatch(t -> PRONOUN_TAGS.contains(t.tag()));
    if (allPronouns) {
      return null;
    }
    for (Mention m : mentions) {
      boolean inside = idx.stream().allMatch(i -> i >= m.begin() && i < m.end());
      if (inside) {
        return new Anchor(m.text(), 2, false, idx);
      }
    }
    if (isProperNounPhrase(arg)) {
      return new Anchor(text(arg), 2, true, idx);
    }
    for (Mention m : mentions) {
      boolean contains = true;
      for (int i = m.begin(); i < m.end(); i++) {
        if (!idx.contains(i)) {
          contains = false;
          break;
        }
      }
      if (contains && m.end() > m.begin()) {
        return new Anchor(text(arg), 1, false, idx);
      }
    }
    return null;
  }

  /** NNP(S) at both ends, only names, numbers and connecting words between ("University of Copenhagen"). */
  static boolean isProperNounPhrase(List<Token> arg) {
    if (arg.isEmpty() || !PROPER_TAGS.contains(arg.get(0).tag())) {
      return false;
    }
    Token last = arg.get(arg.size() - 1);
    if (!PROPER_TAGS.contains(last.tag()) && !"CD".equals(last.tag())) {
      return false;
    }
    return arg.stream().allMatch(t -> PROPER_INNER_TAGS.contains(t.tag()));
  }

  /** Tokens joined as text, without spaces before punctuation and clitics. */
  static String text(List<Token> tokens) {
    StringBuilder b = new StringBuilder();
    for (Token t : tokens) {
      if (b.length() > 0 && !NO_SPACE_BEFORE.contains(t.word())) {
        b.append(' ');
      }
      b.append(t.word());
    }
    return b.toString();
  }

  static String norm(String s) {
    return s.trim().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
  }

  private static Set<Integer> indices(List<Token> tokens) {
    Set<Integer> out = new HashSet<>();
    for (Token t : tokens) {
      out.add(t.index());
    }
    return out;
  }

  /** The chunk's title as the antecedent of pronouns and of "the <noun of the title>". */
  record Antecedent(String name, Set<String> words) {
    private static final java.util.regex.Pattern TRAILING_PARENTHESIS = java.util.regex.Pattern.compile("\\s*\\([^()]*\\)\\s*$");

    /**
     * The antecedent for {@code title}, or null when the title is empty or not in {@code chunkText}. Its
     * name is the title without a trailing parenthesis, or the mention that names it ("American Economic
     * Review" for "The American Economic Review").
     */
    static Antecedent of(String title, String chunkText, List<Sentence> sentences) {
      if (title == null || title.isBlank()) {
        return null;
      }
      String name = TRAILING_PARENTHESIS.matcher(title.trim()).replaceAll("").trim();
      String bare = norm(name).replaceFirst("^the ", "");
      for (Sentence s : sentences) {
        for (Mention m : usableMentions(s)) {
          if (norm(m.text()).equals(bare)) {
            name = m.text();
          }
        }
      }
      String flat = norm(chunkText.replaceAll("\\s*-\\s*", "-"));
      if (name.isEmpty() || !flat.contains(norm(name.replaceAll("\\s*-\\s*", "-")))) {
        return null;
      }
      Set<String> words = new HashSet<>();
      for (String w : title.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
        if (!w.isEmpty()) {
          words.add(w);
        }
      }
      return new Antecedent(name, words);
    }

    /**
     * A lone personal pronoun, or one common noun found among the title's words right after "the" or
     * "this" in the sentence ("The journal"; OpenIE drops the determiner from its arguments).
     */
    boolean standsFor(List<Token> arg, List<Token> sentence) {
      if (arg.size() != 1) {
        return false;
      }
      Token t = arg.get(0);
      String word = t.word().toLowerCase(Locale.ROOT);
      if ("PRP".equals(t.tag())) {
        return TITLE_PRONOUNS.contains(word);
      }
      if (!("NN".equals(t.tag()) || "NNS".equals(t.tag())) || !words.contains(word)) {
        return false;
      }
      for (Token before : sentence) {
        if (before.index() == t.index() - 1) {
          return DESCRIPTION_DETERMINERS.contains(before.word().toLowerCase(Locale.ROOT));
        }
      }
      return false;
    }
  }

  /** An anchored argument: its text (the mention's when it lies inside one), how specific, if a proper noun. */
  record Anchor(String text, int score, boolean proper, Set<Integer> tokens) {}

  private record Scored(Candidate candidate, Anchor subject, Anchor object, String relation) {
    static final Comparator<Scored> BEST_FIRST =
        Comparator.comparingInt((Scored s) -> -(s.subject.score() + s.object.score()))
            .thenComparingDouble(s -> -s.candidate.confidence())
            .thenComparingInt(s -> s.candidate.subject().size() + s.candidate.object().size())
            .thenComparingInt(s -> -s.relation.split("\\s+").length)
            .thenComparing(s -> s.subject.text() + "\t" + s.relation + "\t" + s.object.text());

    /**
     * Variants of one clause: overlapping subjects, overlapping objects, and one relation's words among the
     * other's ("was published in" and "was first published in"; not "was born in" and "was raised in").
     */
    boolean sameClause(Scored o) {
      Set<String> mine = words(relation);
      Set<String> theirs = words(o.relation);
      return (mine.containsAll(theirs) || theirs.containsAll(mine))
          && overlaps(indices(candidate.subject()), indices(o.candidate.subject()))
          && overlaps(indices(candidate.object()), indices(o.candidate.object()));
    }

    private static Set<String> words(String phrase) {
      return new HashSet<>(List.of(norm(phrase).split(" ")));
    }

    private static boolean overlaps(Set<Integer> a, Set<Integer> b) {
      for (Integer i : a) {
        if (b.contains(i)) {
          return true;
        }
      }
      return false;
    }
  }
}
