package io.kgrag.core.qa.normalize;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A step that reads the label index through {@link ServedLabels}, run again until it asks nothing new, with each
 * round's lookups answered shard by shard ({@link LabelRequest#answerFrom}, {@link LabelRequest#merge}) as the
 * label index's exchange answers them, gives what it gives over the whole index.
 */
class ServedLabelsTest {
  private static final int DIMS = 8;

  private static float[] unit(Random rnd) {
    return ShardedLabelIndexTest.unit(rnd, DIMS);
  }

  /** 200 labels with keys 0..199 in three shards (by key modulo 3), built exhaustive. */
  private static List<LabelIndex> shards(Random rnd, List<LabelIndex.Entry> all) {
    List<List<LabelIndex.Entry>> parts = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (long key = 0; key < 200; key++) {
      LabelIndex.Entry e = new LabelIndex.Entry(key, "label " + key, unit(rnd));
      all.add(e);
      parts.get((int) (key % 3)).add(e);
    }
    List<LabelIndex> out = new ArrayList<>();
    for (List<LabelIndex.Entry> p : parts) {
      out.add(LabelIndex.build(p, 200, 400));
    }
    return out;
  }

  /**
   * A step whose lookups depend on earlier answers: the 3 nearest labels of each query, then the vector of the best
   * hit of the first query, then the 2 nearest labels of that vector; it returns everything it read.
   */
  private static List<Object> step(LabelSearch labels, Function<Long, float[]> vectorOf, List<float[]> queries) {
    List<Object> read = new ArrayList<>();
    for (float[] q : queries) {
      read.add(labels.nearest(q, 3));
    }
    @SuppressWarnings("unchecked")
    List<LabelIndex.Hit> first = (List<LabelIndex.Hit>) read.get(0);
    if (first.isEmpty()) {
      throw new IllegalStateException("no nearest label"); // as a step given nothing may fail
    }
    float[] v = vectorOf.apply(first.get(0).labelKey());
    read.add(v.clone());
    read.add(labels.nearest(v, 2));
    read.add(vectorOf.apply(9_999L)); // a key no shard holds
    return read;
  }

  @Test
  void roundsOfAnsweredLookupsGiveWhatTheWholeIndexGives() {
    Random rnd = new Random(11);
    List<LabelIndex.Entry> all = new ArrayList<>();
    List<LabelIndex> shards = shards(rnd, all);
    ShardedLabelIndex whole = ShardedLabelIndex.of(shards);
    List<float[]> queries = List.of(unit(rnd), unit(rnd), unit(rnd));

    List<Object> expected = step(whole, whole::vector, queries);

    ServedLabels served = new ServedLabels(DIMS);
    ServedLabels.Answered answered = ServedLabels.Answered.NONE;
    List<Object> got = null;
    int rounds = 0;
    List<Integer> asked = new ArrayList<>();
    while (true) {
      rounds++;
      served.answerFrom(answered);
      try {
        got = step(served, served::vector, queries);
      } catch (IllegalStateException e) {
        assertTrue(served.missed(), "a pass fails only when it read lookups not answered yet");
        got = null;
      }
      if (!served.missed()) {
        break;
      }
      asked.add(served.missing().size());
      // the exchange: every shard answers every request; the answers are merged per request
      Map<LabelRequest, LabelRequest.Answer> answers = new HashMap<>();
      for (LabelRequest r : served.missing()) {
        List<LabelRequest.Answer> perShard = new ArrayList<>();
        for (LabelIndex s : shards) {
          perShard.add(r.answerFrom(s));
        }
        answers.put(r, r.merge(perShard));
      }
      answered = answered.with(answers);
      assertTrue(rounds < 10, "the lookups settle");
    }
    // first pass: the 3 queries (the vector lookup is not reached: no hit yet); second: the best hit's vector, and the
    // 2 nearest of its zero placeholder, and the absent key; third: the 2 nearest of the real vector
    assertEquals(List.of(3, 3, 1), asked);
    assertEquals(4, rounds);
    assertEquals(expected.size(), got.size());
    for (int i = 0; i < expected.size(); i++) {
      Object e = expected.get(i);
      Object g = got.get(i);
      if (e instanceof float[] f) {
        assertArrayEquals(f, (float[]) g, "lookup " + i);
      } else {
        assertEquals(e, g, "lookup " + i);
      }
    }
    assertNull(got.get(got.size() - 1), "a key no shard holds has no vector, once the shards said so");
    assertEquals(3, ((List<?>) got.get(0)).size());
  }

  @Test
  void requestsAreEqualByWhatTheyAskAndMergeKeepsTheGlobalNearest() {
    float[] v = {0.6f, 0.8f, 0, 0, 0, 0, 0, 0};
    assertEquals(LabelRequest.nearest(v, 3), LabelRequest.nearest(v.clone(), 3));
    assertEquals(LabelRequest.nearest(v, 3).hashCode(), LabelRequest.nearest(v.clone(), 3).hashCode());
    assertNotEquals(LabelRequest.nearest(v, 3), LabelRequest.nearest(v, 4));
    assertNotEquals(LabelRequest.vectorOf(3), LabelRequest.vectorOf(4));
    assertFalse(LabelRequest.vectorOf(3).isNearest());

    LabelRequest r = LabelRequest.nearest(v, 2);
    LabelRequest.Answer a = LabelRequest.Answer.of(List.of(new LabelIndex.Hit(5, "e", 0.9), new LabelIndex.Hit(1, "a", 0.5)), null);
    LabelRequest.Answer b = LabelRequest.Answer.of(List.of(new LabelIndex.Hit(2, "b", 0.9), new LabelIndex.Hit(7, "g", 0.8)), null);
    assertEquals(List.of(new LabelIndex.Hit(2, "b", 0.9), new LabelIndex.Hit(5, "e", 0.9)), r.merge(List.of(a, b)).hits(), "ties by label key");

    float[] stored = {1, 2};
    LabelRequest k = LabelRequest.vectorOf(8);
    assertArrayEquals(stored, k.merge(List.of(new LabelRequest.Answer(null, null), new LabelRequest.Answer(null, stored))).vector());
    assertNull(k.merge(List.of(new LabelRequest.Answer(null, null), new LabelRequest.Answer(null, null))).vector());
  }
}
