package io.kgrag.extract.openie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.text.extract.ExtractedEntity;
import io.kgrag.core.text.extract.ExtractedTriple;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.Extractors;
import io.kgrag.core.text.extract.TextChunk;
import io.kgrag.core.text.extract.TripleExtractor;
import io.kgrag.core.text.extract.TripleExtractorProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The openie extractor with the real CoreNLP models (loaded once for the class, ~30 s). */
class OpenIeExtractorIT {
  private static final String OBAMA =
      "Barack Obama was born in Honolulu. He served as the 44th president of the United States.";
  private static final String BORN = "Barack Obama was born in Honolulu.";

  private static TripleExtractorProvider provider;
  private static TripleExtractor extractor;
  private static Extraction untitled;

  @BeforeAll
  static void load() {
    provider = Extractors.provider("openie");
    extractor = provider.create(Map.of());
    untitled = extractor.extract(new TextChunk(1, "d1", "", OBAMA));
  }

  @AfterAll
  static void close() {
    extractor.close();
  }

  @Test
  void providerIsFoundByName() {
    assertInstanceOf(OpenIeProvider.class, provider);
    assertEquals("openie", provider.name());
    assertTrue(provider.description().contains("CoreNLP"), provider.description());
    assertTrue(Extractors.available().stream().anyMatch(p -> p.name().equals("openie")));
  }

  @Test
  void readsTheBirthplaceTripleWithItsSentence() {
    assertTrue(untitled.triples().contains(new ExtractedTriple("Barack Obama", "was born in", "Honolulu", BORN, 1.0)),
        untitled.triples().toString());
    for (ExtractedTriple t : untitled.triples()) {
      assertTrue(!t.subject().equals("He") && !t.object().startsWith("the "), t.toString());
    }
    assertEquals(0, untitled.tokensIn());
    assertEquals(0, untitled.tokensOut());
  }

  @Test
  void entitiesCarryCoarseTypesAndTheirSentence() {
    assertTrue(untitled.entities().contains(new ExtractedEntity("Barack Obama", "PERSON", BORN)), untitled.entities().toString());
    assertTrue(untitled.entities().contains(new ExtractedEntity("Honolulu", "LOCATION", BORN)), untitled.entities().toString());
    assertTrue(untitled.entities().stream().anyMatch(e -> e.name().equals("United States") && e.type().equals("LOCATION")),
        untitled.entities().toString());
    assertTrue(untitled.entities().stream().noneMatch(e -> e.name().equals("He") || e.type().equals("ORDINAL")),
        untitled.entities().toString());
  }

  @Test
  void withoutATitleThePronounClauseIsRejectedWithItsReason() {
    assertTrue(untitled.rejected().stream().anyMatch(r -> r.startsWith("sentence 2: (He; served as;")
        && r.endsWith("subject 'He' is neither an entity mention nor a proper noun")), untitled.rejected().toString());
  }

  @Test
  void theTitleStandsForHe() {
    Extraction titled = extractor.extract(new TextChunk(2, "d2", "Barack Obama", OBAMA));
    assertTrue(titled.triples().stream().anyMatch(t -> t.subject().equals("Barack Obama") && t.relation().equals("served as")
        && t.object().contains("president")), titled.triples().toString());
  }

  @Test
  void blankTextGivesAnEmptyExtraction() {
    assertEquals(Extraction.empty(), extractor.extract(new TextChunk(3, "d3", "t", "")));
    assertEquals(Extraction.empty(), extractor.extract(new TextChunk(4, "d4", "t", "  \n\t ")));
  }

  @Test
  void sentencesOverTheLengthLimitKeepTheirEntitiesButAreNotParsed() {
    try (TripleExtractor shortOnly = provider.create(Map.of("openie.max-sentence-length", "5"))) {
      Extraction e = shortOnly.extract(new TextChunk(5, "d5", "", OBAMA + " Obama won."));
      assertEquals(List.of(), e.triples(), "the only triple-bearing sentences are over the limit");
      assertTrue(e.entities().contains(new ExtractedEntity("Honolulu", "LOCATION", BORN)), e.entities().toString());
      assertTrue(e.rejected().contains(
          "sentence 1: 7 tokens, over openie.max-sentence-length 5: not parsed (its entities are kept)"), e.rejected().toString());
      assertTrue(e.rejected().stream().anyMatch(r -> r.startsWith("sentence 2: ") && r.contains("not parsed")));
    }
  }

  @Test
  void pipelinesAreSharedAndConcurrentExtractorsAgree() throws Exception {
    OpenIeSettings s = OpenIeSettings.DEFAULTS;
    assertSame(Pipelines.get(s.nerProperties()), Pipelines.get(s.nerProperties()));
    assertSame(Pipelines.get(s.parseProperties()), Pipelines.get(s.parseProperties()));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Extraction>> runs = List.of(
          pool.submit(() -> provider.create(Map.of()).extract(new TextChunk(1, "d1", "", OBAMA))),
          pool.submit(() -> provider.create(Map.of()).extract(new TextChunk(1, "d1", "", OBAMA))));
      for (Future<Extraction> f : runs) {
        assertEquals(untitled, f.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void badSettingsNameTheSetting() {
    Map<String, String> bad = Map.of(
        "openie.max-sentence-length", "0",
        "openie.min-confidence", "1.5",
        "openie.max-entailments", "many",
        "openie.triple-strict", "yes",
        "openie.title-antecedent", "maybe",
        "openie.fine-grained-ner", "1");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      IllegalArgumentException x =
          assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of(e.getKey(), e.getValue())));
      assertTrue(x.getMessage().startsWith(e.getKey() + ": ") && x.getMessage().contains(e.getValue()), x.getMessage());
    }
    // unknown keys are ignored (the contract), known ones parse
    OpenIeSettings ok = OpenIeSettings.from(Map.of("openie.min-confidence", " 0.25 ", "openie.triple-strict", "FALSE",
        "llm.model", "x"));
    assertEquals(0.25, ok.minConfidence());
    assertEquals(false, ok.tripleStrict());
  }
}
