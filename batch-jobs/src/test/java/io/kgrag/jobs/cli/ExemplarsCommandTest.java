package io.kgrag.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.exemplar.Exemplar;
import io.kgrag.core.exemplar.ExemplarFile;
import io.kgrag.core.exemplar.PatternTriple;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.internal.qa.QuestionsInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag exemplars} in process on a tiny MetaQA-like graph ingested with {@code kgrag index --stages
 * ingest --format pipe}: the exemplar file gets each type's chain, the held-out files and the exemplars
 * partition the input lines and read back through {@code kgrag qa}'s reader with their hop and types, and
 * bad input or a warehouse without a graph writes nothing.
 */
class ExemplarsCommandTest {
  private static final List<String> KB = List.of(
      "Alpha|directed_by|Ann", "Beta|directed_by|Ann", "Gamma|directed_by|Bob", "Delta|directed_by|Ann", "Omega|directed_by|Bob",
      "Alpha|written_by|Bob", "Beta|written_by|Ann", "Gamma|written_by|Eve", "Delta|written_by|Ann", "Delta|written_by|Bob",
      "Alpha|starred_actors|Cy", "Beta|starred_actors|Cy", "Beta|starred_actors|Ann", "Gamma|starred_actors|Dee",
      "Omega|starred_actors|Dee", "Alpha|release_year|1999", "Beta|release_year|1999", "Gamma|release_year|1999",
      "Delta|release_year|2001", "Omega|release_year|2001");
  private static final List<String> ONE_HOP = List.of(
      "who directed [Alpha]\tAnn", "what did [Cy] act in\tAlpha|Beta", "who directed [Gamma]\tBob", "who directed [Nobody]\tAnn",
      "what did [Dee] act in\tGamma|Omega", "who directed [Delta]\tAnn", "who directed [Omega]\tBob", "what did [Ann] act in\tBeta");
  private static final List<String> ONE_HOP_TYPES = List.of(
      "movie_to_director", "actor_to_movie", "movie_to_director", "movie_to_director", "actor_to_movie", "movie_to_director",
      "movie_to_director", "actor_to_movie");
  private static final List<String> TWO_HOP = List.of(
      "which films share the director of [Alpha]\tBeta|Delta", "which films share the director of [Gamma]\tOmega",
      "which films share the director of [Beta]\tAlpha|Delta", "which films share the director of [Omega]\tGamma");
  private static final Map<String, List<PatternTriple>> CHAIN = Map.of(
      "movie_to_director", List.of(new PatternTriple("[0]", "directed_by", "?1")),
      "actor_to_movie", List.of(new PatternTriple("?1", "starred_actors", "[0]")),
      "movie_to_director_to_movie", List.of(new PatternTriple("[0]", "directed_by", "?1"), new PatternTriple("?2", "directed_by", "?1")));

  private static Path wh;
  private static Path in;

  @BeforeAll
  static void ingestTheGraph() {
    Path dir = SparkTestSession.newDir("exemplars");
    Path kb = TestFiles.lines(dir, "kb.txt", KB);
    wh = dir.resolve("wh");
    Cli r = Cli.run("index", "--input", kb.toString(), "--format", "pipe", "--stages", "ingest", "--warehouse", wh.toString());
    assertEquals(0, r.code, r.toString());
    in = dir.resolve("in");
    TestFiles.lines(in, "qa_dev_1hop.txt", ONE_HOP);
    TestFiles.lines(in, "qa_dev_1hop_qtype.txt", ONE_HOP_TYPES);
    TestFiles.lines(in, "qa_dev_2hop.txt", TWO_HOP);
    TestFiles.lines(in, "qa_dev_2hop_qtype.txt", List.of("movie_to_director_to_movie", "movie_to_director_to_movie", "movie_to_director_to_movie", "movie_to_director_to_movie"));
  }

  @Test
  void writesEachTypesChainAndHeldOutFilesThatPartitionTheInput() throws IOException {
    Path out = SparkTestSession.newDir("exemplars-out");
    Path ex = out.resolve("exemplars.jsonl");
    Path held = out.resolve("heldout");
    Cli r = Cli.run("exemplars", "--warehouse", wh.toString(), "--questions", in.resolve("qa_dev_1hop.txt").toString(),
        in.resolve("qa_dev_2hop.txt").toString(), "--fraction", "0.5", "--out", ex.toString(), "--heldout-dir", held.toString());
    assertEquals(0, r.code, r.toString());
    assertTrue(r.out.matches("(?s).*hop 1  actor_to_movie\\s+3 questions\\s+2 drawn.*chain \\^starred_actors .*"), r.out);
    assertTrue(r.out.matches("(?s).*hop 1  movie_to_director\\s+5 questions\\s+3 drawn.*chain directed_by .*"), r.out);
    assertTrue(r.out.matches("(?s).*hop 2  movie_to_director_to_movie\\s+4 questions\\s+2 drawn.*chain directed_by/\\^directed_by .*mean F1 1\\.000.*"), r.out);

    List<Exemplar> xs = ExemplarFile.read(ex);
    assertFalse(xs.isEmpty());
    Map<String, Set<String>> used = new HashMap<>();
    for (Exemplar x : xs) {
      assertEquals(CHAIN.get(x.qtype()), x.pattern(), x.toString());
      String file = x.source().substring(0, x.source().indexOf(':'));
      int line = Integer.parseInt(x.source().substring(x.source().indexOf(':') + 1));
      String original = (file.equals("qa_dev_1hop.txt") ? ONE_HOP : TWO_HOP).get(line - 1);
      assertTrue(original.startsWith(x.question() + "\t"), x + " is line " + line + " of " + file);
      assertTrue(used.computeIfAbsent(file, k -> new HashSet<>()).add(original));
    }
    for (String name : List.of("qa_dev_1hop.txt", "qa_dev_2hop.txt")) {
      List<String> input = name.equals("qa_dev_1hop.txt") ? ONE_HOP : TWO_HOP;
      List<String> heldLines = Files.readAllLines(held.resolve(name), StandardCharsets.UTF_8);
      List<String> heldTypes = Files.readAllLines(held.resolve(name.replace(".txt", "_qtype.txt")), StandardCharsets.UTF_8);
      assertEquals(heldLines.size(), heldTypes.size());
      Set<String> all = new HashSet<>(used.getOrDefault(name, Set.of()));
      for (String l : heldLines) {
        assertTrue(all.add(l), name + ": " + l + " is both an exemplar and held out, or held out twice");
      }
      assertEquals(new HashSet<>(input), all, name + ": exemplars and held-out lines are the input");
      // kgrag qa reads the held-out file with the hop of its name and the types of its sidecar
      List<Row> rows = QuestionsInput.read(SparkTestSession.get(), held.resolve(name).toString(), "heldout", null).collectAsList();
      assertEquals(heldLines.size(), rows.size());
      for (int i = 0; i < rows.size(); i++) {
        Map<String, String> meta = rows.get(i).getJavaMap(rows.get(i).fieldIndex("meta"));
        assertEquals(name.contains("1hop") ? "1" : "2", meta.get("hop"));
        assertEquals(heldTypes.get(i), meta.get("qtype"));
      }
    }
    // the question about Nobody can never be an exemplar
    assertTrue(xs.stream().noneMatch(x -> x.question().contains("Nobody")));
  }

  @Test
  void badInputOrNoGraphWritesNothing() {
    Path dir = SparkTestSession.newDir("exemplars-bad");
    Path bad = TestFiles.lines(dir, "qa_bad_1hop.txt", List.of("who directed [Alpha]\tAnn", "who directed [Beta] Ann"));
    Path ex = dir.resolve("out/exemplars.jsonl");
    Path held = dir.resolve("out/heldout");
    Cli r = Cli.run("exemplars", "--warehouse", wh.toString(), "--questions", in.resolve("qa_dev_1hop.txt").toString(), bad.toString(),
        "--out", ex.toString(), "--heldout-dir", held.toString());
    assertEquals(2, r.code, r.toString());
    assertTrue(r.err.contains("qa_bad_1hop.txt line 2: expected question<TAB>answers"), r.err);
    assertFalse(Files.exists(dir.resolve("out")), "nothing written");

    Cli noGraph = Cli.run("exemplars", "--warehouse", dir.resolve("empty-wh").toString(), "--questions", in.resolve("qa_dev_1hop.txt").toString(),
        "--out", ex.toString(), "--heldout-dir", held.toString());
    assertEquals(2, noGraph.code, noGraph.toString());
    assertTrue(noGraph.err.contains("run `kgrag index`"), noGraph.err);
    assertFalse(Files.exists(dir.resolve("out")), "nothing written");
    assertFalse(Files.exists(dir.resolve("empty-wh")), "the warehouse is only read");
  }
}
