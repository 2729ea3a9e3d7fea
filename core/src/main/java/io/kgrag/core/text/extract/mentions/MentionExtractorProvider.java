package io.kgrag.core.text.extract.mentions;

import io.kgrag.core.text.extract.TripleExtractor;
import io.kgrag.core.text.extract.TripleExtractorProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code mentions} extractor ({@link MentionExtractor}). Settings ({@code spark.kgrag.extract.} prefix
 * removed): {@code mentions.labels}, a UTF-8 file of known labels, one per line (read once per JVM);
 * {@code mentions.max-gap}, the most words a relation phrase may have (1-30, default 8);
 * {@code mentions.noun-phrases} and {@code mentions.title} (true/false, default true): whether determiner-led
 * noun phrases are mentions, and whether every chunk mentions its document's title.
 */
public final class MentionExtractorProvider implements TripleExtractorProvider {
  static final String LABELS = "mentions.labels";
  static final String MAX_GAP = "mentions.max-gap";
  static final String NOUN_PHRASES = "mentions.noun-phrases";
  static final String TITLE = "mentions.title";
  private static final Map<String, MentionExtractor.KnownLabels> FILES = new ConcurrentHashMap<>();

  @Override
  public String name() {
    return "mentions";
  }

  @Override
  public String description() {
    return "fast offline mentions (title and known labels, capitalised names, numbers, noun phrases) and the phrase"
        + " between two mentions of a sentence as their relation; settings " + LABELS + ", " + MAX_GAP + ", "
        + NOUN_PHRASES + ", " + TITLE;
  }

  @Override
  public TripleExtractor create(Map<String, String> settings) {
    int maxGap = integer(settings, MAX_GAP, 8, 1, 30);
    boolean nounPhrases = bool(settings, NOUN_PHRASES, true);
    boolean title = bool(settings, TITLE, true);
    String file = settings.getOrDefault(LABELS, "").strip();
    MentionExtractor.KnownLabels labels =
        file.isEmpty() ? MentionExtractor.KnownLabels.of(List.of()) : FILES.computeIfAbsent(file, MentionExtractorProvider::read);
    return new MentionExtractor(labels, maxGap, nounPhrases, title);
  }

  private static MentionExtractor.KnownLabels read(String file) {
    Path p = Path.of(file);
    if (!Files.isRegularFile(p)) {
      throw new IllegalArgumentException(LABELS + ": no file " + p.toAbsolutePath()
          + "; give a UTF-8 text file with one label per line, readable on every executor");
    }
    try {
      return MentionExtractor.KnownLabels.of(Files.readAllLines(p, StandardCharsets.UTF_8));
    } catch (IOException | UncheckedIOException e) {
      throw new IllegalArgumentException(LABELS + ": cannot read " + p.toAbsolutePath() + " as UTF-8 text (" + e.getMessage() + ")", e);
    }
  }

  private static int integer(Map<String, String> settings, String key, int dflt, int min, int max) {
    String v = settings.get(key);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    try {
      int n = Integer.parseInt(v.strip());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(key + " must be a whole number from " + min + " to " + max + ", got '" + v + "'");
  }

  private static boolean bool(Map<String, String> settings, String key, boolean dflt) {
    String v = settings.get(key);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    return switch (v.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(key + " must be true or false, got '" + v + "'");
    };
  }
}
