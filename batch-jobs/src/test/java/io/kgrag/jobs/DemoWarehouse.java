package io.kgrag.jobs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.stream.Stream;

/**
 * The bundled FB15k-237 slice (data/demo/fb15k237, 2,038 triples) indexed once per test JVM with every
 * stage of {@code kgrag index} (the test session's small GNN settings). Tests get their own copy, so they
 * can change it freely; building the index is the slow part, a copy takes milliseconds.
 */
public final class DemoWarehouse {
  private static Path built;

  private DemoWarehouse() {}

  /** data/demo/fb15k237 of the project. */
  public static Path data() {
    Path demo = Paths.get(System.getProperty("maven.multiModuleProjectDirectory", ".."), "data", "demo", "fb15k237");
    return demo.toFile().isDirectory() ? demo : Paths.get("..", "data", "demo", "fb15k237");
  }

  /** A fresh copy of the indexed demo warehouse in a new directory. */
  public static synchronized Path copy(String prefix) {
    if (built == null) {
      Path wh = SparkTestSession.newDir("demo-fb15k237");
      Cli r =
          Cli.run("index", "--input", data().resolve("triples.tsv").toString(), "--names", data().resolve("entity2name.tsv").toString(),
              "--warehouse", wh.toString(), "--index-partitions", "4", "--skip", "stem-gnn"); // SG-RAG's index; StemQaTest trains its own
      if (r.code != 0) {
        throw new IllegalStateException("indexing the demo slice failed: " + r);
      }
      built = wh;
    }
    Path to = SparkTestSession.newDir(prefix);
    try (Stream<Path> files = Files.walk(built)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(built.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return to;
  }
}
