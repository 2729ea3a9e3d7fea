package io.kgrag.core.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.text.extract.ExtractedEntity;
import io.kgrag.core.text.extract.ExtractedTriple;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.ExtractionException;
import io.kgrag.core.text.extract.Extractors;
import io.kgrag.core.text.extract.TextChunk;
import io.kgrag.core.text.extract.TripleExtractor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TextGraphTest {
  @Test
  void keysAndRelationNamesAreNormalised() {
    assertEquals("text:gregoire colin", TextGraph.entityKey("Grégoire-Colin "));
    assertNull(TextGraph.entityKey(" -- "));
    assertEquals("was born in", TextGraph.relationName("  Was \t born\nin "));
    assertNull(TextGraph.relationName("  "));
  }

  @Test
  void chunkGraphMergesMentionsAddsTripleArgumentsAndRejectsBadTriples() {
    Extraction x =
        new Extraction(
            List.of(new ExtractedEntity("Marie Curie", "PERSON", "a physicist"), new ExtractedEntity("marie curie", "", "born in 1867"), new ExtractedEntity("!!", "", "")),
            List.of(
                new ExtractedTriple("Marie Curie", "was born in", "Warsaw", "s1", 0.5),
                new ExtractedTriple("Marie  Curie", "Was born  in", "Warsaw", "", 0.8),
                new ExtractedTriple("Warsaw", "is in", "warsaw", "", 1),
                new ExtractedTriple("Warsaw", " ", "Poland", "", 1)),
            List.of("extractor said no"),
            0,
            0);
    TextGraph.ChunkGraph g = TextGraph.of(x);
    assertEquals(List.of("text:marie curie", "text:warsaw"), g.mentions().stream().map(TextGraph.Mention::key).toList());
    TextGraph.Mention marie = g.mentions().get(0);
    assertEquals("Marie Curie", marie.name());
    assertEquals("PERSON", marie.type());
    assertEquals("a physicist born in 1867", marie.description());
    assertEquals(1, g.edges().size());
    assertEquals(new TextGraph.Edge("text:marie curie", "was born in", "text:warsaw", "s1", 0.8), g.edges().get(0));
    assertEquals(4, g.rejected().size(), g.rejected().toString());
    assertEquals("extractor said no", g.rejected().get(0));
  }

  @Test
  void mergeChoosesTheMostFrequentLabelTiesLexicallyAndIsOrderFree() {
    List<TextGraph.Mention> ms = new ArrayList<>();
    ms.add(new TextGraph.Mention("text:paris", "paris", "", "d2"));
    ms.add(new TextGraph.Mention("text:paris", "Paris", "LOCATION", "d1"));
    ms.add(new TextGraph.Mention("text:paris", "PARIS", "CITY", "d2"));
    TextGraph.MergedEntity a = TextGraph.merge("text:paris", ms);
    assertEquals("PARIS", a.label()); // all once: lexical order ("P" < "p")
    assertEquals("CITY", a.type());
    assertEquals("d2 d1", a.description()); // d2 twice, first
    ms.add(new TextGraph.Mention("text:paris", "Paris", "LOCATION", ""));
    Collections.reverse(ms);
    TextGraph.MergedEntity b = TextGraph.merge("text:paris", ms);
    assertEquals("Paris", b.label());
    assertEquals("LOCATION", b.type());
    assertNull(TextGraph.mergeDescriptions(List.of("", " ")));
    assertEquals(TextGraph.MAX_DESCRIPTION, TextGraph.mergeDescriptions(List.of("y".repeat(5000))).length());
  }

  @Test
  void patternTestExtractorIsFoundByNameAndReadsSentences() {
    assertEquals("pattern", Extractors.provider("pattern").name());
    UserInputExceptionCheck.unknown();
    try (TripleExtractor x = Extractors.provider("pattern").create(Map.of())) {
      Extraction e =
          x.extract(new TextChunk(1, "d", "t", "Paris is the capital of France. Marie Curie was born in Warsaw. Warsaw is the largest city of poland."));
      assertEquals(2, e.triples().size());
      assertEquals("is the capital of", e.triples().get(0).relation());
      assertEquals("Marie Curie", e.triples().get(1).subject());
      assertEquals("Warsaw", e.triples().get(1).object());
      assertEquals(1, e.rejected().size());
    }
    TripleExtractor failing = Extractors.provider("pattern").create(Map.of("pattern.fail-on", "BOOM"));
    assertThrows(ExtractionException.class, () -> failing.extract(new TextChunk(2, "d", "", "BOOM is the end of All.")));
  }

  /** Extractors.provider on an unknown name names the available ones. */
  static final class UserInputExceptionCheck {
    static void unknown() {
      io.kgrag.core.UserInputException e =
          assertThrows(io.kgrag.core.UserInputException.class, () -> Extractors.provider("nope"));
      assertTrue(e.getMessage().contains("pattern"), e.getMessage());
    }
  }
}
