package io.kgrag.extract.openie;

import io.kgrag.core.text.extract.TripleExtractor;
import io.kgrag.core.text.extract.TripleExtractorProvider;
import java.util.Map;

/** The {@code openie} extractor: Stanford CoreNLP 4.5.10 OpenIE + NER, offline, models from the classpath. */
public final class OpenIeProvider implements TripleExtractorProvider {
  @Override
  public String name() {
    return "openie";
  }

  @Override
  public String description() {
    return "Stanford CoreNLP OpenIE + NER, offline (GPL-3.0 module extract-openie; models load once per JVM"
        + " in 45-60 s, 0.7 GB of heap, 3 GB with work); settings " + OpenIeSettings.MAX_SENTENCE_LENGTH + ", " + OpenIeSettings.TRIPLE_STRICT
        + ", " + OpenIeSettings.MIN_CONFIDENCE + ", " + OpenIeSettings.MAX_ENTAILMENTS + ", "
        + OpenIeSettings.FINE_GRAINED_NER + ", " + OpenIeSettings.TITLE_ANTECEDENT;
  }

  @Override
  public TripleExtractor create(Map<String, String> settings) {
    return new OpenIeExtractor(OpenIeSettings.from(settings));
  }
}
