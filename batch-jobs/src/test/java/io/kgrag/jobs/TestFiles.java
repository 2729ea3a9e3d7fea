package io.kgrag.jobs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writing small input files for tests. */
public final class TestFiles {
  private TestFiles() {}

  public static Path lines(Path dir, String name, List<String> lines) {
    return bytes(dir, name, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
  }

  public static Path bytes(Path dir, String name, byte[] content) {
    try {
      Path p = dir.resolve(name);
      Files.createDirectories(p.getParent());
      Files.write(p, content);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Concatenates UTF-8 text and raw byte pieces (for lines with bad encodings). */
  public static byte[] concat(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object p : parts) {
      byte[] b = p instanceof byte[] ? (byte[]) p : p.toString().getBytes(StandardCharsets.UTF_8);
      out.write(b, 0, b.length);
    }
    return out.toByteArray();
  }
}
