package io.kgrag.core.srag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.srag.embedded.EmbeddedSetAnalyser;
import io.kgrag.core.srag.embedded.OperationReader;
import io.kgrag.core.understand.CanonicalVectors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Values a question names by another word than the graph's label, and operations worded unlike the operators'
 * canonical phrases, read with the bundled MiniLM over a small graph of people.
 */
class SragNamedValueTest {
  private static Embedder minilm;
  private static EmbeddedSetAnalyser analyser;
  private static SetGrounder grounder;

  @BeforeAll
  static void open() {
    minilm = EmbedderSpec.onnx().batchSize(16).build().open();
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    Map<String, Long> ids = new HashMap<>();
    String[][] people = {
      {"Ada Vance", "Female", "Singer"}, {"Bea Stone", "Female", "Singer"}, {"Cleo Hart", "Female", "Singer"},
      {"Dan Frost", "Male", "Singer"}, {"Eli Moss", "Male", "Pianist"}, {"Fay Lund", "Female", "Pianist"},
    };
    for (String[] p : people) {
      edge(b, ids, p[0], "/people/person/gender", p[1]);
      edge(b, ids, p[0], "/people/person/profession", p[2]);
    }
    edge(b, ids, "Ada Vance", "/people/person/profession", "Pianist");
    KnowledgeGraph g = b.build();
    Map<String, float[]> vectors = new HashMap<>();
    for (String r : List.of("/people/person/gender", "/people/person/profession")) {
      vectors.put(r, minilm.embed(List.of(Labels.relationText(r)))[0]);
    }
    grounder = new SetGrounder(g, new Gazetteer(g), new PropertyMatcher(vectors, minilm));
    analyser = new EmbeddedSetAnalyser(grounder, new OperationReader(new CanonicalVectors(), minilm), null);
  }

  private static void edge(KnowledgeGraph.Builder b, Map<String, Long> ids, String h, String r, String t) {
    for (String x : List.of(h, t)) {
      if (!ids.containsKey(x)) {
        ids.put(x, (long) ids.size() + 1);
        b.entity(ids.get(x), x);
      }
    }
    b.edge(ids.get(h), r, ids.get(t));
  }

  @AfterAll
  static void close() {
    minilm.close();
  }

  @Test
  void aWordNamesAValueOfTheMembersByEmbedding() {
    SetQuery s = analyser.analyse("Among people with the profession Singer, are there more women or men?");
    assertEquals(Operation.INTERCOMPARISON, s.operation());
    assertEquals("Singer", s.set().anchorLabel());
    assertEquals("/people/person/gender", s.group().relation());
    assertEquals(List.of("Female", "Male"), s.values());
    SetQuery h = analyser.analyse("If the count of women among people with the profession Pianist were 2 higher, would it exceed the count of men?");
    assertEquals(Operation.HYPOTHETICAL, h.operation());
    assertEquals(2, h.k());
    assertEquals(List.of("Female", "Male"), h.values());
  }

  @Test
  void aWordThatNamesAPropertyOrNothingIsNoValue() {
    CanonicalVectors canonical = new CanonicalVectors();
    SetGrounder.NamedValues values =
        grounder.namedValues(grounder.members(analyser.analyse("How many people with the profession Singer are women?").set()), t -> canonical.of(t, minilm));
    assertEquals("Female", values.of("women"));
    assertEquals("Male", values.of("males"));
    assertNull(values.of("gender"), "the property's own name");
    assertNull(values.of("profession"), "the property's own name");
    assertNull(values.of("weather"));
  }

  @Test
  void operationsWordedOtherwiseThanTheirPhrases() {
    assertEquals(Operation.AGGREGATION, analyser.analyse("What is the count of people with the profession Pianist who are women?").operation());
    SetQuery fewest = analyser.analyse("Among people with the profession Singer, who has fewest professions?");
    assertEquals(Operation.SUPERLATIVE, fewest.operation());
    assertEquals(false, fewest.highest());
    assertEquals("/people/person/profession", fewest.measure().property().relation());
  }
}
