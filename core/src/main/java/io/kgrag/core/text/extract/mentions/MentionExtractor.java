package io.kgrag.core.text.extract.mentions;

import io.kgrag.core.text.extract.ExtractedEntity;
import io.kgrag.core.text.extract.ExtractedTriple;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.TextChunk;
import io.kgrag.core.text.extract.TripleExtractor;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the mentions of a chunk and the phrases that join neighbouring mentions of a sentence. Per sentence,
 * in this order, each token belonging to at most one mention:
 *
 * <ol>
 *   <li>known labels (the document's title, the {@code mentions.labels} file), longest match, case-insensitive;
 *       a closed-class word opening a capitalised label ("The Rank Organisation", "In Cold Blood") is left out of
 *       the mention, as the name rule leaves it out of a name, so that the title and the chunks writing the name
 *       in running text ("acquired by the Rank Organisation") mention one entity;
 *   <li>names: runs of capitalised words, which may hold lower-case connectors ("University of Oxford") and
 *       trailing numbers ("Apollo 11"); a capitalised sentence-initial word that the chunk also writes in lower
 *       case ("Born", "Later") is not a name;
 *   <li>numbers (type DATE for a four-digit year, NUMBER otherwise);
 *   <li>noun phrases: up to four lower-case content words after a determiner ("the first album"), ending
 *       before a word ending in -ed, -ing or -ly after the first (a verb or adverb in English morphology).
 * </ol>
 *
 * Two neighbouring mentions of one sentence are related by the words between them when there are one to
 * {@code maxGap} of them, no bracket or clause punctuation, and not only a conjunction ("X and Y" lists).
 * A sentence opening with a personal pronoun relates the document's title to its first mention ("He was
 * born in Lyon" in "Grégoire Colin").
 */
final class MentionExtractor implements TripleExtractor {
  private static final Pattern TOKEN =
      Pattern.compile("[\\p{L}\\p{N}](?:[\\p{L}\\p{M}\\p{N}'’&.-]*[\\p{L}\\p{M}\\p{N}])?|[,;:()\\[\\]\"“”]");
  private static final Pattern NUMBER = Pattern.compile("\\p{N}[\\p{N},.]*");
  private static final Pattern YEAR = Pattern.compile("1\\d{3}|20\\d{2}");
  private static final Set<String> CLAUSE = Set.of(",", ";", ":", "(", ")", "[", "]", "\"", "“", "”");
  private static final Set<String> PRONOUNS = Set.of("he", "she", "it", "they", "his", "her", "its", "their");
  private static final int MAX_NOUN_PHRASE = 4;

  private final KnownLabels labels;
  private final int maxGap;
  private final boolean nounPhrases;
  private final boolean titleMention;

  MentionExtractor(KnownLabels labels, int maxGap, boolean nounPhrases, boolean titleMention) {
    this.labels = labels;
    this.maxGap = maxGap;
    this.nounPhrases = nounPhrases;
    this.titleMention = titleMention;
  }

  private record Token(String text, int start, int end) {
    String lower() {
      return text.toLowerCase(Locale.ROOT);
    }

    boolean isWord() {
      return Character.isLetterOrDigit(text.codePointAt(0));
    }

    boolean isCapitalised() {
      return Character.isUpperCase(text.codePointAt(0));
    }

    boolean isLowerWord() {
      return Character.isLowerCase(text.codePointAt(0));
    }
  }

  private record Span(int from, int to, String name, String type) {}

  @Override
  public Extraction extract(TextChunk chunk) {
    String text = chunk.text();
    String title = chunk.title().strip();
    KnownLabels known = title.isEmpty() ? labels : labels.with(title);
    Set<String> lowerCaseWords = lowerCaseWords(text);
    String titleName = nameOf(title);
    Map<String, ExtractedEntity> entities = new LinkedHashMap<>();
    if (titleMention && !title.isEmpty()) {
      entities.put(titleName.toLowerCase(Locale.ROOT), new ExtractedEntity(titleName, "", ""));
    }
    List<ExtractedTriple> triples = new ArrayList<>();
    BreakIterator it = BreakIterator.getSentenceInstance(Locale.ENGLISH);
    it.setText(text);
    int s = it.first();
    for (int e = it.next(); e != BreakIterator.DONE; s = e, e = it.next()) {
      String sentence = text.substring(s, e);
      List<Token> tokens = tokens(sentence);
      if (tokens.isEmpty()) {
        continue;
      }
      List<Span> spans = spans(tokens, sentence, known, lowerCaseWords);
      for (Span sp : spans) {
        entities.putIfAbsent(sp.name().toLowerCase(Locale.ROOT), new ExtractedEntity(sp.name(), sp.type(), ""));
      }
      String evidence = sentence.strip();
      if (!title.isEmpty() && !spans.isEmpty() && PRONOUNS.contains(tokens.get(0).lower())) {
        String phrase = phrase(tokens, 1, spans.get(0).from());
        if (phrase != null) {
          triples.add(new ExtractedTriple(titleName, phrase, spans.get(0).name(), evidence, 1.0));
        }
      }
      for (int i = 0; i + 1 < spans.size(); i++) {
        String phrase = phrase(tokens, spans.get(i).to(), spans.get(i + 1).from());
        if (phrase != null) {
          triples.add(new ExtractedTriple(spans.get(i).name(), phrase, spans.get(i + 1).name(), evidence, 1.0));
        }
      }
    }
    return new Extraction(new ArrayList<>(entities.values()), triples, List.of(), 0, 0);
  }

  /** The relation phrase of tokens [from, to), or null when they cannot be one. */
  private String phrase(List<Token> tokens, int from, int to) {
    int words = to - from;
    if (words < 1 || words > maxGap) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    boolean onlyConjunctions = true;
    for (int i = from; i < to; i++) {
      Token t = tokens.get(i);
      if (CLAUSE.contains(t.text())) {
        return null;
      }
      onlyConjunctions &= FunctionWords.CONJUNCTIONS.contains(t.lower());
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append(t.lower());
    }
    return onlyConjunctions ? null : b.toString();
  }

  private List<Span> spans(List<Token> tokens, String sentence, KnownLabels known, Set<String> lowerCaseWords) {
    int n = tokens.size();
    Span[] at = new Span[n];
    boolean[] taken = new boolean[n];
    // 1. known labels, longest first
    for (int i = 0; i < n; ) {
      int len = 0;
      for (int l = Math.min(known.maxTokens(), n - i); l >= 1 && len == 0; l--) {
        if (known.contains(key(tokens, i, i + l))) {
          len = l;
        }
      }
      if (len > 0) {
        int from = opensWithFunctionWord(tokens, i, i + len) ? i + 1 : i;
        mark(at, taken, new Span(from, i + len, text(sentence, tokens, from, i + len), ""));
        i += len;
      } else {
        i++;
      }
    }
    // 2. names
    for (int i = 0; i < n; i++) {
      Token t = tokens.get(i);
      if (taken[i] || !t.isWord() || !t.isCapitalised() || FunctionWords.isFunctionWord(t.text())) {
        continue;
      }
      int j = i + 1;
      while (j < n && !taken[j]) {
        Token u = tokens.get(j);
        if (u.isWord() && (u.isCapitalised() || NUMBER.matcher(u.text()).matches())) {
          j++;
        } else if (FunctionWords.NAME_CONNECTORS.contains(u.text()) && j + 1 < n && !taken[j + 1]
            && tokens.get(j + 1).isWord() && tokens.get(j + 1).isCapitalised()
            && !FunctionWords.isFunctionWord(tokens.get(j + 1).text())) {
          j += 2;
        } else {
          break;
        }
      }
      if (i == 0 && j == 1 && lowerCaseWords.contains(t.lower())) {
        continue; // a capitalised sentence opener the chunk also writes in lower case
      }
      mark(at, taken, new Span(i, j, text(sentence, tokens, i, j), ""));
      i = j - 1;
    }
    // 3. numbers
    for (int i = 0; i < n; i++) {
      String w = tokens.get(i).text();
      if (!taken[i] && NUMBER.matcher(w).matches()) {
        mark(at, taken, new Span(i, i + 1, w, YEAR.matcher(w).matches() ? "DATE" : "NUMBER"));
      }
    }
    // 4. noun phrases after a determiner
    if (nounPhrases) {
      for (int i = 0; i + 1 < n; i++) {
        if (taken[i] || !FunctionWords.DETERMINERS.contains(tokens.get(i).lower())) {
          continue;
        }
        int from = i + 1;
        int j = from;
        Span name = at[from];
        if (name != null) {
          // "a French actor": a one-word name (not a known label) before a noun is the noun phrase's adjective
          boolean adjective = name.to() == from + 1 && from + 1 < n && !taken[from + 1]
              && contentWord(tokens.get(from + 1), true) && !known.contains(key(tokens, from, from + 1));
          if (!adjective) {
            continue;
          }
          j = from + 1;
        }
        while (j < n && j - from < MAX_NOUN_PHRASE && !taken[j] && contentWord(tokens.get(j), j == from)) {
          j++;
        }
        if (j > from && (name == null || j > from + 1)) {
          at[from] = null;
          taken[from] = false;
          mark(at, taken, new Span(from, j, text(sentence, tokens, from, j), ""));
          i = j - 1;
        }
      }
    }
    List<Span> spans = new ArrayList<>();
    for (Span sp : at) {
      if (sp != null) {
        spans.add(sp);
      }
    }
    return spans;
  }

  /**
   * Whether tokens [from, to) open with a closed-class word before a capitalised word that is not one ("The Rank
   * Organisation"): the name rule never starts a name at such a word.
   */
  private static boolean opensWithFunctionWord(List<Token> tokens, int from, int to) {
    if (to - from < 2 || !FunctionWords.isFunctionWord(tokens.get(from).text())) {
      return false;
    }
    Token next = tokens.get(from + 1);
    return next.isWord() && next.isCapitalised() && !FunctionWords.isFunctionWord(next.text());
  }

  /** A title as a mention's name: without an opening closed-class word (see {@link #opensWithFunctionWord}). */
  private static String nameOf(String title) {
    List<Token> t = tokens(title);
    return opensWithFunctionWord(t, 0, t.size()) ? title.substring(t.get(1).start()).strip() : title;
  }

  private static boolean contentWord(Token t, boolean first) {
    if (!t.isWord() || !t.isLowerWord() || FunctionWords.isFunctionWord(t.text())) {
      return false;
    }
    String w = t.lower();
    return first || !(w.endsWith("ed") || w.endsWith("ing") || w.endsWith("ly"));
  }

  private static void mark(Span[] at, boolean[] taken, Span span) {
    at[span.from()] = span;
    for (int k = span.from(); k < span.to(); k++) {
      taken[k] = true;
    }
  }

  private static String text(String sentence, List<Token> tokens, int from, int to) {
    return sentence.substring(tokens.get(from).start(), tokens.get(to - 1).end());
  }

  private static String key(List<Token> tokens, int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int i = from; i < to; i++) {
      if (i > from) {
        b.append(' ');
      }
      b.append(tokens.get(i).lower());
    }
    return b.toString();
  }

  private static List<Token> tokens(String text) {
    List<Token> out = new ArrayList<>();
    Matcher m = TOKEN.matcher(text);
    while (m.find()) {
      out.add(new Token(m.group(), m.start(), m.end()));
    }
    return out;
  }

  /** The words the chunk writes in lower case (to tell a sentence opener from a name). */
  private static Set<String> lowerCaseWords(String text) {
    Set<String> out = new HashSet<>();
    for (Token t : tokens(text)) {
      if (t.isWord() && t.isLowerWord()) {
        out.add(t.text());
      }
    }
    return out;
  }

  /** Token sequences of labels, in the tokeniser's lower-case form, as {@link MentionExtractor} matches them. */
  static final class KnownLabels {
    private final Set<String> keys;
    private final int maxTokens;
    private final String extra; // the document's title, checked beside the shared set without copying it

    private KnownLabels(Set<String> keys, int maxTokens, String extra) {
      this.keys = keys;
      this.maxTokens = maxTokens;
      this.extra = extra;
    }

    static KnownLabels of(Iterable<String> labels) {
      Set<String> keys = new HashSet<>();
      int max = 0;
      for (String label : labels) {
        List<Token> t = words(label);
        if (!t.isEmpty()) {
          keys.add(key(t, 0, t.size()));
          max = Math.max(max, t.size());
        }
      }
      return new KnownLabels(keys, max, null);
    }

    /** These labels and {@code label} (shares this set). */
    KnownLabels with(String label) {
      List<Token> t = words(label);
      return t.isEmpty() ? this : new KnownLabels(keys, Math.max(maxTokens, t.size()), key(t, 0, t.size()));
    }

    boolean contains(String key) {
      return key.equals(extra) || keys.contains(key);
    }

    int maxTokens() {
      return maxTokens;
    }

    private static List<Token> words(String label) {
      List<Token> t = tokens(label);
      t.removeIf(x -> !x.isWord());
      return t;
    }
  }
}
