package io.kgrag.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteChunksTest {
  @Test
  void writesOfAnySizeComeBackInOrderInFullChunks() throws IOException {
    Random rnd = new Random(1);
    byte[] data = new byte[100_000];
    rnd.nextBytes(data);
    ByteChunks.Output out = new ByteChunks.Output(7_000);
    int at = 0;
    while (at < data.length) {
      int n = Math.min(data.length - at, rnd.nextInt(20_000));
      if (n == 1 || rnd.nextInt(10) == 0) {
        out.write(data[at]);
        n = 1;
      } else {
        out.write(data, at, n);
      }
      at += n;
    }
    List<byte[]> chunks = out.chunks();
    assertEquals(data.length, out.size());
    assertEquals(data.length, ByteChunks.size(chunks));
    for (int i = 0; i < chunks.size() - 1; i++) {
      assertEquals(7_000, chunks.get(i).length, "chunk " + i);
    }
    assertTrue(chunks.get(chunks.size() - 1).length <= 7_000);
    try (InputStream in = ByteChunks.input(chunks)) {
      assertArrayEquals(data, in.readAllBytes());
    }
  }

  @Test
  void nothingWrittenIsNoChunk() throws IOException {
    ByteChunks.Output out = new ByteChunks.Output(16);
    assertEquals(List.of(), out.chunks());
    try (InputStream in = ByteChunks.input(out.chunks())) {
      assertEquals(-1, in.read());
    }
  }
}
