package io.kgrag.core.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class StableIdsTest {

  /*
   * Pinned values: ids are persisted in the catalog and appended to across runs, so any change to the
   * hashing scheme (tag, length prefix, byte order, digest) silently breaks existing indexes. These were
   * computed once and cross-checked with an independent implementation (Python hashlib: SHA-256 over
   * tag + for each part a 4-byte big-endian UTF-8 length + the UTF-8 bytes; first 8 bytes, big-endian,
   * signed).
   */
  @Test
  void pinnedEntityIds() {
    assertEquals(-5651116963977759136L, StableIds.entityId("/m/027rn"));
    assertEquals(6111596265963673026L, StableIds.entityId("http://dbpedia.org/resource/Barack_Obama"));
    assertEquals(460228098876899209L, StableIds.entityId(""));
    assertEquals(1495950313820234951L, StableIds.entityId("Grégoire 中文 😀"), "UTF-8, not UTF-16 or platform charset");
  }

  @Test
  void pinnedEdgeId() {
    assertEquals(
        6241583672698419666L,
        StableIds.edgeId("/m/027rn", "/location/country/form_of_government", "/m/06cx9"));
  }

  @Test
  void pinnedContentId() {
    assertEquals(2679731097445050749L, StableIds.contentId("chunk", "hello"));
  }

  @Test
  void sameKeySameIdAcrossCalls() {
    for (String k : List.of("/m/0abc", "Barack Obama", "", "é", "_:b0")) {
      assertEquals(StableIds.entityId(k), StableIds.entityId(new String(k.toCharArray())), k);
    }
    assertEquals(StableIds.edgeId("a", "r", "b"), StableIds.edgeId("a", "r", "b"));
  }

  @Test
  void sameIdsFromManyThreads() throws Exception {
    int n = 2_000;
    Map<String, Long> expected = new HashMap<>();
    for (int k = 0; k < n; k++) {
      expected.put("/m/" + k, StableIds.entityId("/m/" + k));
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Map<String, Long>>> jobs = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        final int offset = t;
        jobs.add(
            () -> {
              Map<String, Long> got = new HashMap<>();
              // each thread walks the keys in a different order and interleaves edge ids, so a digest
              // shared between threads (or not reset) would show up as a wrong id
              for (int j = 0; j < n; j++) {
                String key = "/m/" + ((j * 7 + offset * 131) % n);
                StableIds.edgeId(key, "r", key);
                got.put(key, StableIds.entityId(key));
              }
              return got;
            });
      }
      for (Future<Map<String, Long>> f : pool.invokeAll(jobs)) {
        assertEquals(expected, f.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void lengthPrefixSeparatesParts() {
    assertNotEquals(StableIds.edgeId("ab", "c", "d"), StableIds.edgeId("a", "bc", "d"));
    assertNotEquals(StableIds.edgeId("a", "bc", "d"), StableIds.edgeId("a", "b", "cd"));
    assertNotEquals(StableIds.edgeId("", "ab", "c"), StableIds.edgeId("a", "b", "c"));
    assertNotEquals(StableIds.edgeId("a", "", "bc"), StableIds.edgeId("a", "b", "c"));
  }

  @Test
  void edgeIsDirected() {
    assertNotEquals(StableIds.edgeId("a", "r", "b"), StableIds.edgeId("b", "r", "a"));
  }

  @Test
  void entityEdgeAndContentIdsAreTaggedDifferently() {
    String key = "/m/027rn";
    long entity = StableIds.entityId(key);
    assertNotEquals(entity, StableIds.contentId("doc", key));
    assertNotEquals(entity, StableIds.contentId("chunk", key));
    assertNotEquals(StableIds.contentId("doc", key), StableIds.contentId("chunk", key));
    // an edge whose parts concatenate to the key is still not the entity
    assertNotEquals(entity, StableIds.edgeId(key, "", ""));
    assertNotEquals(entity, StableIds.edgeId("", key, ""));
    // tag bytes and content bytes do not run together
    assertNotEquals(StableIds.contentId("ab", "c"), StableIds.contentId("a", "bc"));
  }

  @Test
  void noCollisionsAmong200kKeys() {
    int n = 200_000;
    Set<Long> entityIds = new HashSet<>(n * 2);
    Set<Long> edgeIds = new HashSet<>(n * 2);
    for (int k = 0; k < n; k++) {
      String key = "/m/0" + Integer.toString(k, 36);
      assertTrue(entityIds.add(StableIds.entityId(key)), () -> "entity collision at " + key);
      // near-identical edges: same endpoints, relation differing by one number
      String rel = "/r/" + k;
      assertTrue(edgeIds.add(StableIds.edgeId("/m/0a", rel, "/m/0b")), () -> "edge collision at " + rel);
    }
    assertEquals(n, entityIds.size());
    assertEquals(n, edgeIds.size());
  }
}
