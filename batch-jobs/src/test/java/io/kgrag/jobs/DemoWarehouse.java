package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.stream.Stream;

/**
 * The bundled demo slices indexed once per test JVM, shared by every test class that reads them: each test
 * gets its own copy (milliseconds), so it can write to it freely, while the slow part, building the index,
 * happens once.
 *
 * <ul>
 *   <li>{@link #copy}: data/demo/fb15k237 (2,038 triples, 12 ERQA questions) with SG-RAG's stages of {@code
 *       kgrag index}: ingest, embed, gnn, paths, path-index (4 partitions);
 *   <li>{@link #metaqa}: data/demo/metaqa (485 triples, 20 one-hop questions) with ingest, embed and STEM's
 *       stem-gnn; {@link #metaqaGraphOnly} the same warehouse before stem-gnn (what SimGRAG, QAFD-RAG and
 *       SRAG need, and a STEM warehouse without a model).
 * </ul>
 *
 * <p>Both are built with the test session's small GNN settings ({@link SparkTestSession}).
 */
public final class DemoWarehouse {
  private static Path fb15k;
  private static Path metaqaGraph;
  private static Path metaqa;

  private DemoWarehouse() {}

  /** data/demo/fb15k237 of the project. */
  public static Path data() {
    Path demo = Paths.get(System.getProperty("maven.multiModuleProjectDirectory", ".."), "data", "demo", "fb15k237");
    return demo.toFile().isDirectory() ? demo : Paths.get("..", "data", "demo", "fb15k237");
  }

  /** data/demo/metaqa of the project: kb.txt and questions_1hop.txt. */
  public static Path metaqaData() {
    return data().getParent().resolve("metaqa");
  }

  /** A fresh copy of the indexed FB15k-237 demo warehouse (every SG-RAG stage) in a new directory. */
  public static synchronized Path copy(String prefix) {
    if (fb15k == null) {
      Path wh = SparkTestSession.newDir("demo-fb15k237");
      run("index", "--input", data().resolve("triples.tsv").toString(), "--names", data().resolve("entity2name.tsv").toString(),
          "--warehouse", wh.toString(), "--index-partitions", "4", "--skip", "stem-gnn");
      fb15k = wh;
    }
    return copyOf(fb15k, prefix);
  }

  /** A fresh copy of the indexed MetaQA demo warehouse: ingest, embed and stem-gnn. */
  public static synchronized Path metaqa(String prefix) {
    if (metaqa == null) {
      Path graph = builtMetaqaGraph();
      Path wh = copyOf(graph, "demo-metaqa");
      run("index", "--stages", "stem-gnn", "--warehouse", wh.toString());
      metaqa = wh;
    }
    return copyOf(metaqa, prefix);
  }

  /** A fresh copy of the MetaQA demo warehouse with the graph and its embeddings only (ingest, embed). */
  public static synchronized Path metaqaGraphOnly(String prefix) {
    return copyOf(builtMetaqaGraph(), prefix);
  }

  private static Path builtMetaqaGraph() {
    if (metaqaGraph == null) {
      Path wh = SparkTestSession.newDir("demo-metaqa-graph");
      run("index", "--input", metaqaData().resolve("kb.txt").toString(), "--format", "pipe", "--stages", "ingest,embed",
          "--warehouse", wh.toString());
      metaqaGraph = wh;
    }
    return metaqaGraph;
  }

  private static void run(String... args) {
    Cli r = Cli.run(args);
    assertEquals(0, r.code, () -> "building a demo warehouse failed: " + r);
  }

  /** A copy of the warehouse {@code from} in a new directory under the test session's scratch folder. */
  public static Path copyOf(Path from, String prefix) {
    Path to = SparkTestSession.newDir(prefix);
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
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
