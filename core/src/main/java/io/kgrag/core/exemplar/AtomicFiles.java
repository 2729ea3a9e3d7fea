package io.kgrag.core.exemplar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes files so that a crash never leaves a half-written one: each file's bytes go to a temporary file
 * next to it, and only when every file of the set is complete are they moved into place (an atomic rename
 * where the file system has one). A failure before the moves leaves every target as it was.
 */
final class AtomicFiles {
  private static final SecureRandom RANDOM = new SecureRandom();

  private AtomicFiles() {}

  /** Writes one file atomically. */
  static void write(Path target, byte[] content) {
    writeAll(Map.of(target, content));
  }

  /**
   * Writes a set of files: all temporary files first, then the moves, in the map's order.
   *
   * @throws UncheckedIOException when a file cannot be written (its temporary files are removed)
   */
  static void writeAll(Map<Path, byte[]> files) {
    Map<Path, Path> staged = new LinkedHashMap<>();
    try {
      for (Map.Entry<Path, byte[]> e : files.entrySet()) {
        Path target = e.getKey().toAbsolutePath();
        Path dir = target.getParent();
        Files.createDirectories(dir);
        // not createTempFile: its owner-only permissions would stay with the moved file; a new file gets
        // the ordinary ones (the umask's)
        Path tmp = dir.resolve("." + target.getFileName() + "." + Long.toHexString(RANDOM.nextLong() & Long.MAX_VALUE) + ".tmp");
        staged.put(target, tmp);
        Files.write(tmp, e.getValue(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      }
      List<Path> moved = new ArrayList<>();
      for (Map.Entry<Path, Path> e : staged.entrySet()) {
        move(e.getValue(), e.getKey());
        moved.add(e.getValue());
      }
      moved.forEach(staged.values()::remove);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + e.getMessage(), e);
    } finally {
      for (Path tmp : staged.values()) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // best effort: the original error matters more
        }
      }
    }
  }

  private static void move(Path tmp, Path target) throws IOException {
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
