package io.kgrag.extract.openie;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The {@code openie} extractor's settings, read from {@code spark.kgrag.extract.*} keys without that prefix.
 *
 * @param maxSentenceLength sentences with more tokens than this are not parsed (NER still reads them): the
 *     dependency parse and OpenIE's clause search grow fast with length, and very long sentences (lists,
 *     tables flattened into text) give no usable triples
 * @param tripleStrict CoreNLP's {@code openie.triple.strict}: drop triples whose clause had to lose an
 *     argument to be split (fewer, more precise triples)
 * @param minConfidence triples OpenIE scores below this are rejected
 * @param maxEntailments CoreNLP's {@code openie.max_entailments_per_clause}: how many shortened variants of
 *     one clause OpenIE tries (default CoreNLP's 1000; 100 kept 2 % fewer triples and was no measurably
 *     faster on 100 MuSiQue passages)
 * @param fineGrainedNer CoreNLP's {@code ner.applyFineGrained}: fine types (CITY, COUNTRY, TITLE, ...) from
 *     the KBP gazetteers instead of LOCATION and friends; slower to load and to run
 * @param titleAntecedent let "he", "it", "the journal" stand for the chunk's title when the title occurs in
 *     the chunk (see {@link TripleFilter}); not CoreNLP's coreference, which stays off
 */
public record OpenIeSettings(
    int maxSentenceLength,
    boolean tripleStrict,
    double minConfidence,
    int maxEntailments,
    boolean fineGrainedNer,
    boolean titleAntecedent) {

  public static final String MAX_SENTENCE_LENGTH = "openie.max-sentence-length";
  public static final String TRIPLE_STRICT = "openie.triple-strict";
  public static final String MIN_CONFIDENCE = "openie.min-confidence";
  public static final String MAX_ENTAILMENTS = "openie.max-entailments";
  public static final String FINE_GRAINED_NER = "openie.fine-grained-ner";
  public static final String TITLE_ANTECEDENT = "openie.title-antecedent";

  public static final OpenIeSettings DEFAULTS = new OpenIeSettings(80, true, 0.0, 1000, false, true);

  public OpenIeSettings {
    if (maxSentenceLength < 1) {
      throw new IllegalArgumentException(MAX_SENTENCE_LENGTH + ": must be at least 1, got " + maxSentenceLength);
    }
    if (!(minConfidence >= 0 && minConfidence <= 1)) {
      throw new IllegalArgumentException(MIN_CONFIDENCE + ": must be in [0, 1], got " + minConfidence);
    }
    if (maxEntailments < 1) {
      throw new IllegalArgumentException(MAX_ENTAILMENTS + ": must be at least 1, got " + maxEntailments);
    }
  }

  /**
   * Settings from {@code settings}; missing keys take {@link #DEFAULTS}, unknown keys are ignored.
   *
   * @throws IllegalArgumentException naming the setting and the value when one is unusable
   */
  public static OpenIeSettings from(Map<String, String> settings) {
    OpenIeSettings d = DEFAULTS;
    return new OpenIeSettings(
        intSetting(settings, MAX_SENTENCE_LENGTH, d.maxSentenceLength()),
        boolSetting(settings, TRIPLE_STRICT, d.tripleStrict()),
        doubleSetting(settings, MIN_CONFIDENCE, d.minConfidence()),
        intSetting(settings, MAX_ENTAILMENTS, d.maxEntailments()),
        boolSetting(settings, FINE_GRAINED_NER, d.fineGrainedNer()),
        boolSetting(settings, TITLE_ANTECEDENT, d.titleAntecedent()));
  }

  /** CoreNLP properties for the NER stage (tokenize, ssplit, pos, lemma, ner with entity mentions). */
  Properties nerProperties() {
    Properties p = new Properties();
    p.setProperty("annotators", "tokenize,ssplit,pos,lemma,ner");
    p.setProperty("tokenize.language", "en");
    // DATE, TIME, MONEY, PERCENT come from the 7-class CRF and NUMBER/ORDINAL from the numeric classifiers;
    // SUTime adds normalised values (and DURATION/SET) kgrag does not use, at a cost in load time and speed
    p.setProperty("ner.useSUTime", "false");
    p.setProperty("ner.applyNumericClassifiers", "true");
    p.setProperty("ner.applyFineGrained", Boolean.toString(fineGrainedNer));
    p.setProperty("ner.buildEntityMentions", "true");
    return p;
  }

  /** CoreNLP properties for the parse stage, run on sentences the NER stage annotated. */
  Properties parseProperties() {
    Properties p = new Properties();
    p.setProperty("annotators", "depparse,natlog,openie");
    p.setProperty("enforceRequirements", "false");
    p.setProperty("openie.resolve_coref", "false");
    p.setProperty("openie.triple.strict", Boolean.toString(tripleStrict));
    p.setProperty("openie.max_entailments_per_clause", Integer.toString(maxEntailments));
    return p;
  }

  private static String value(Map<String, String> settings, String key) {
    String v = settings == null ? null : settings.get(key);
    return v == null || v.isBlank() ? null : v.trim();
  }

  private static int intSetting(Map<String, String> settings, String key, int fallback) {
    String v = value(settings, key);
    if (v == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": expected a whole number, got '" + v + "'");
    }
  }

  private static double doubleSetting(Map<String, String> settings, String key, double fallback) {
    String v = value(settings, key);
    if (v == null) {
      return fallback;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": expected a number, got '" + v + "'");
    }
  }

  private static boolean boolSetting(Map<String, String> settings, String key, boolean fallback) {
    String v = value(settings, key);
    if (v == null) {
      return fallback;
    }
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(key + ": expected true or false, got '" + v + "'");
    };
  }
}
