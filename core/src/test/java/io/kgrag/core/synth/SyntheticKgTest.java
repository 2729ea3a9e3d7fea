package io.kgrag.core.synth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticKgTest {
  private static final SyntheticKg KG = SyntheticKg.generate(SyntheticKg.Config.ofEdges(50_000, 7));

  @Test
  void hasTheConfiguredSizeWithDistinctEdgesAndEveryEntityCovered() {
    assertEquals(50_000, KG.edgeCount());
    assertEquals(5_000, KG.entityCount());
    assertEquals(300, KG.relationCount());
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < KG.edgeCount(); i++) {
      long e = KG.edge(i);
      assertTrue(seen.add(e), "repeated edge");
      assertTrue(SyntheticKg.subject(e) != SyntheticKg.object(e), "self-loop");
    }
    assertTrue(Arrays.stream(KG.degrees()).allMatch(d -> d > 0), "an entity without edges");
    Set<String> labels = new HashSet<>();
    for (int v = 0; v < KG.entityCount(); v++) {
      assertTrue(labels.add(KG.label(v).toLowerCase()), "repeated label " + KG.label(v));
      assertFalse(KG.label(v).contains("|"));
    }
  }

  @Test
  void degreesFollowAPowerLaw() {
    int[] d = KG.degrees().clone();
    Arrays.sort(d);
    double mean = Arrays.stream(d).average().orElseThrow();
    int max = d[d.length - 1];
    int median = d[d.length / 2];
    // hubs far above the mean, most entities below it: a heavy tail, not a uniform graph
    assertTrue(max > 20 * mean, "max " + max + " mean " + mean);
    assertTrue(median < mean, "median " + median + " mean " + mean);
    SyntheticKg uniform = SyntheticKg.generate(new SyntheticKg.Config(50_000, 5_000, 300, 40, 0, 7));
    assertTrue(Arrays.stream(uniform.degrees()).max().orElseThrow() < max / 4);
  }

  @Test
  void relationsAreSchemaNamedAndTypedBySubject() {
    for (int i = 0; i < KG.edgeCount(); i += 97) {
      long e = KG.edge(i);
      String rel = KG.relationName(SyntheticKg.relation(e));
      assertTrue(rel.matches("/[a-z]+/[a-z]+/[a-z]+_[a-z]+"), rel);
      assertEquals(KG.typeOf(SyntheticKg.subject(e)), rel.split("/")[1]);
    }
  }

  @Test
  void sameSeedSameFilesOtherSeedOtherGraph(@TempDir Path dir) throws Exception {
    SyntheticKg a = SyntheticKg.generate(SyntheticKg.Config.ofEdges(20_000, 11));
    SyntheticKg b = SyntheticKg.generate(SyntheticKg.Config.ofEdges(20_000, 11));
    a.writeTriples(dir.resolve("a.txt"));
    b.writeTriples(dir.resolve("b.txt"));
    assertArrayEquals(Files.readAllBytes(dir.resolve("a.txt")), Files.readAllBytes(dir.resolve("b.txt")));
    List<String> lines = Files.readAllLines(dir.resolve("a.txt"));
    assertEquals(20_000, lines.size());
    assertEquals(3, lines.get(0).split("\\|").length);
    SyntheticKg c = SyntheticKg.generate(SyntheticKg.Config.ofEdges(20_000, 12));
    c.writeTriples(dir.resolve("c.txt"));
    assertFalse(Arrays.equals(Files.readAllBytes(dir.resolve("a.txt")), Files.readAllBytes(dir.resolve("c.txt"))));
  }

  @Test
  void rejectsImpossibleConfigurations() {
    assertThrows(IllegalArgumentException.class, () -> new SyntheticKg.Config(0, 10, 40, 40, 0.9, 1));
    assertThrows(IllegalArgumentException.class, () -> new SyntheticKg.Config(100, 1, 40, 40, 0.9, 1));
    assertThrows(IllegalArgumentException.class, () -> new SyntheticKg.Config(1000, 100, 10, 41, 0.9, 1));
    assertThrows(IllegalArgumentException.class, () -> new SyntheticKg.Config(1000, 100, 451, 40, 0.9, 1));
    assertThrows(IllegalArgumentException.class, () -> new SyntheticKg.Config(1000, 100, 300, 40, -1, 1));
  }

  @Test
  void bridgeStarQuestionsHaveExactlyTheirAnswer() {
    List<BridgeStarQuestions.Question> qs = new BridgeStarQuestions(KG).generate(200, 3, 5, 3);
    assertTrue(qs.size() >= 150, "only " + qs.size());
    Map<String, Integer> byLabel = new HashMap<>();
    for (int v = 0; v < KG.entityCount(); v++) {
      byLabel.put(KG.label(v), v);
    }
    Set<String> answers = new HashSet<>();
    for (BridgeStarQuestions.Question q : qs) {
      assertTrue(q.constraints() >= 3 && q.constraints() <= 5, q.toString());
      assertTrue(q.bridges() >= 1, q.toString());
      assertTrue(answers.add(q.answer()), "answer used twice: " + q.answer());
      assertTrue(q.text().startsWith("Which " + KG.typeOf(byLabel.get(q.answer())) + " is "), q.text());
      // brute force over every entity: exactly the answer satisfies every named (relation, constant)
      List<long[]> constraints = constraintsOf(q, byLabel);
      assertEquals(q.constraints(), constraints.size(), q.text());
      Set<Integer> satisfying = new HashSet<>();
      for (int v = 0; v < KG.entityCount(); v++) {
        final int s = v;
        if (constraints.stream().allMatch(c -> has(s, (int) c[0], (int) c[1]))) {
          satisfying.add(v);
        }
      }
      assertEquals(Set.of(byLabel.get(q.answer())), satisfying, q.text());
      int distractor = byLabel.get(q.distractor());
      assertTrue(constraints.stream().anyMatch(c -> has(distractor, (int) c[0], (int) c[1])), "distractor shares no bridge");
    }
    assertEquals(qs, new BridgeStarQuestions(KG).generate(200, 3, 5, 3));
  }

  @Test
  void writesQuotedCsv(@TempDir Path dir) throws Exception {
    List<BridgeStarQuestions.Question> qs = List.of(new BridgeStarQuestions.Question("synth-000001", "Which film is, \"x\"?", "A", 3, 1, "B"));
    BridgeStarQuestions.writeCsv(qs, dir.resolve("q.csv"));
    assertEquals(
        List.of("qid,query,answer,constraints,bridges,distractor", "synth-000001,\"Which film is, \"\"x\"\"?\",\"A\",3,1,\"B\""),
        Files.readAllLines(dir.resolve("q.csv")));
  }

  /** The (relation, object) pairs a question names, read back from its text by longest label match. */
  private static List<long[]> constraintsOf(BridgeStarQuestions.Question q, Map<String, Integer> byLabel) {
    String body = q.text().substring(q.text().indexOf(" is ") + 4, q.text().length() - 1);
    List<long[]> out = new java.util.ArrayList<>();
    for (String part : body.split(", | and ")) {
      boolean found = false;
      for (int r = 0; r < KG.relationCount() && !found; r++) {
        String p = KG.relationPhrase(r) + " ";
        if (part.startsWith(p) && byLabel.containsKey(part.substring(p.length()))) {
          int o = byLabel.get(part.substring(p.length()));
          if (has(byLabel.get(q.answer()), r, o)) {
            out.add(new long[] {r, o});
            found = true;
          }
        }
      }
    }
    return out;
  }

  private static boolean has(int s, int r, int o) {
    long key = SyntheticKg.pack(s, r, o);
    int lo = 0;
    int hi = KG.edgeCount() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long e = KG.edge(mid);
      if (e < key) {
        lo = mid + 1;
      } else if (e > key) {
        hi = mid - 1;
      } else {
        return true;
      }
    }
    return false;
  }
}
