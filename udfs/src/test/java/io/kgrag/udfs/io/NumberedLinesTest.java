package io.kgrag.udfs.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NumberedLinesTest {
  private static SparkSession spark;
  private static JavaSparkContext jsc;

  @BeforeAll
  static void start() {
    spark =
        SparkSession.builder().master("local[2]").appName("udfs tests").config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static Path write(Path dir, String name, int lines) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int i = 1; i <= lines; i++) {
      b.append(name.replaceAll("\\..*", "")).append(" line ").append(i).append(i % 7 == 0 ? " with some padding text" : "").append('\n');
    }
    Path p = dir.resolve(name);
    Files.writeString(p, b.toString());
    return p;
  }

  @Test
  void lineNumbersAreExactAcrossManySplitsAndFiles(@TempDir Path dir) throws IOException {
    write(dir, "a.txt", 3000);
    write(dir, "b.txt", 1);
    Path gz = dir.resolve("c.txt.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write("c line 1\r\nc line 2\r\n".getBytes(StandardCharsets.UTF_8));
    }
    jsc.hadoopConfiguration().setLong("mapreduce.input.fileinputformat.split.maxsize", 4096);
    try {
      List<String> files = InputPaths.resolve(jsc.hadoopConfiguration(), dir.toString(), "input");
      assertEquals(3, files.size());
      List<NumberedLines.Line> lines = NumberedLines.read(jsc, files).collect();
      assertEquals(3003, lines.size());
      int splitsSeen = NumberedLines.read(jsc, files).getNumPartitions();
      assertTrue(splitsSeen > 10, "expected many splits, got " + splitsSeen);
      for (NumberedLines.Line l : lines) {
        String text = new String(l.bytes, StandardCharsets.UTF_8).replace("\r", "");
        String name = l.source.substring(l.source.lastIndexOf('/') + 1).replace(".txt.gz", ".txt").replace(".txt", "");
        assertTrue(text.startsWith(name + " line " + l.lineNo), l.source + ":" + l.lineNo + " holds '" + text + "'");
      }
    } finally {
      jsc.hadoopConfiguration().unset("mapreduce.input.fileinputformat.split.maxsize");
    }
  }

  @Test
  void rawBytesAreKeptUndecoded(@TempDir Path dir) throws IOException {
    byte[] bad = {'o', 'k', '\n', (byte) 0xC3, (byte) 0x28, '\n'};
    Path p = dir.resolve("bad.txt");
    Files.write(p, bad);
    List<NumberedLines.Line> lines = NumberedLines.read(jsc, List.of(p.toString())).collect();
    assertEquals(2, lines.size());
    assertArrayEquals(new byte[] {(byte) 0xC3, (byte) 0x28}, lines.get(1).bytes);
  }

  @Test
  void inputPathsResolveFilesGlobsAndDirectoriesAndExplainWhatIsWrong(@TempDir Path dir) throws IOException {
    write(dir, "x1.tsv", 1);
    write(dir, "x2.tsv", 1);
    Files.createDirectories(dir.resolve("sub"));
    write(dir.resolve("sub"), "y.tsv", 1);
    write(dir.resolve("sub"), "_SUCCESS", 0);
    var conf = jsc.hadoopConfiguration();
    assertEquals(1, InputPaths.resolve(conf, dir.resolve("x1.tsv").toString(), "input").size());
    assertEquals(2, InputPaths.resolve(conf, dir + "/x*.tsv", "input").size());
    assertEquals(3, InputPaths.resolve(conf, dir.toString(), "input").size());
    UserInputException missing = assertThrows(UserInputException.class, () -> InputPaths.resolve(conf, dir + "/nope", "input"));
    assertTrue(missing.getMessage().startsWith("input not found: "), missing.getMessage());
    Files.createDirectories(dir.resolve("empty"));
    UserInputException empty = assertThrows(UserInputException.class, () -> InputPaths.resolve(conf, dir + "/empty", "input"));
    assertTrue(empty.getMessage().contains("holds no files"), empty.getMessage());
    Files.writeString(dir.resolve("kg.tgz"), "x");
    UserInputException tgz = assertThrows(UserInputException.class, () -> InputPaths.resolve(conf, dir + "/kg.tgz", "input"));
    assertTrue(tgz.getMessage().contains("extract it first"), tgz.getMessage());
  }
}
