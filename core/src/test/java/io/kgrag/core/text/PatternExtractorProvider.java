package io.kgrag.core.text;

import io.kgrag.core.text.extract.ExtractedEntity;
import io.kgrag.core.text.extract.ExtractedTriple;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.ExtractionException;
import io.kgrag.core.text.extract.TextChunk;
import io.kgrag.core.text.extract.TripleExtractor;
import io.kgrag.core.text.extract.TripleExtractorProvider;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small, deterministic extractor for tests ({@code --extractor pattern}): reads sentences of the forms
 * "X is/was the Y of Z" (relation "is the Y of") and "X was born/died/lives in Z" (relation "was born in"),
 * X and Z being runs of capitalised words. Sentences that start like one of these but have no capitalised
 * object are rejected. Setting {@code pattern.fail-on=<word>} makes a chunk containing that word fail
 * with an {@link ExtractionException}, to test per-chunk failures.
 */
public final class PatternExtractorProvider implements TripleExtractorProvider {
  private static final String NAME = "\\p{Lu}[\\p{L}'-]*(?:\\s+\\p{Lu}[\\p{L}'-]*)*";
  private static final Pattern OF =
      Pattern.compile("^(" + NAME + ")\\s+(is|was)\\s+the\\s+([\\p{Ll}]+(?:\\s+[\\p{Ll}]+)?)\\s+of\\s+(" + NAME + ")");
  private static final Pattern IN = Pattern.compile("^(" + NAME + ")\\s+(was born|died|lives|lived)\\s+in\\s+(" + NAME + ")");
  private static final Pattern STARTS = Pattern.compile("^(" + NAME + ")\\s+(?:(?:is|was)\\s+the\\s+\\p{Ll}+.*\\sof\\s|(?:was born|died|lives|lived)\\s+in\\s)");

  @Override
  public String name() {
    return "pattern";
  }

  @Override
  public String description() {
    return "test extractor: 'X is the Y of Z' and 'X was born in Z' sentences";
  }

  @Override
  public TripleExtractor create(Map<String, String> settings) {
    String failOn = settings.getOrDefault("pattern.fail-on", "");
    if (failOn.contains(" ")) {
      throw new IllegalArgumentException("pattern.fail-on must be one word, got '" + failOn + "'");
    }
    return chunk -> extract(chunk, failOn);
  }

  private static Extraction extract(TextChunk chunk, String failOn) {
    if (!failOn.isEmpty() && chunk.text().contains(failOn)) {
      throw new ExtractionException("chunk " + chunk.chunkId() + " contains '" + failOn + "' (pattern.fail-on)");
    }
    List<ExtractedEntity> entities = new ArrayList<>();
    List<ExtractedTriple> triples = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    BreakIterator it = BreakIterator.getSentenceInstance(Locale.ENGLISH);
    it.setText(chunk.text());
    int s = it.first();
    for (int e = it.next(); e != BreakIterator.DONE; s = e, e = it.next()) {
      String sentence = chunk.text().substring(s, e).strip();
      Matcher of = OF.matcher(sentence);
      Matcher in = IN.matcher(sentence);
      if (of.find()) {
        add(entities, triples, of.group(1), of.group(2) + " the " + of.group(3) + " of", of.group(4), sentence);
      } else if (in.find()) {
        add(entities, triples, in.group(1), in.group(2) + " in", in.group(3), sentence);
      } else if (STARTS.matcher(sentence).find()) {
        rejected.add("no capitalised object: " + sentence);
      }
    }
    return new Extraction(entities, triples, rejected, chunk.text().length() / 4, triples.size());
  }

  private static void add(List<ExtractedEntity> entities, List<ExtractedTriple> triples, String subject, String relation, String object, String sentence) {
    entities.add(new ExtractedEntity(subject, "", sentence));
    entities.add(new ExtractedEntity(object, relation.endsWith(" in") ? "LOCATION" : "", ""));
    triples.add(new ExtractedTriple(subject, relation, object, sentence, relation.startsWith("was born") ? 0.9 : 1.0));
  }
}
