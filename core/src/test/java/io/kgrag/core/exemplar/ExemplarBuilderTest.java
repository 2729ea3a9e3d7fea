package io.kgrag.core.exemplar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.core.exemplar.ExemplarBuilder.Build;
import io.kgrag.core.exemplar.ExemplarBuilder.Group;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExemplarBuilderTest {
  @TempDir Path dir;
  private final ChainInducer inducer = new ChainInducer(TinyGraph.movies());

  private static final List<String> LINES = List.of(
      "who directed [Alpha]\tAnn",
      "who directed [Gamma]\tBob",
      "",
      "who directed [Delta]\tAnn",
      "who directed [Beta]\tAnn",
      "who directed [Nobody]\tAnn",
      "what did [Cy] act in\tAlpha|Beta",
      "what did [Dee] act in\tGamma");
  private static final List<String> TYPES = List.of(
      "movie_to_director", "movie_to_director", "", "movie_to_director", "movie_to_director", "movie_to_director",
      "actor_to_movie", "actor_to_movie");

  private Path write(String name, List<String> lines) throws IOException {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.write(p, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    return p;
  }

  private MetaQaSource.QuestionFile oneHop() throws IOException {
    write("in/qa_dev_1hop_qtype.txt", TYPES);
    return MetaQaSource.read(write("in/qa_dev_1hop.txt", LINES));
  }

  @Test
  void everyDrawnQuestionTheChainAnswersBecomesAnExemplarAndTheRestIsHeldOut() throws IOException {
    MetaQaSource.QuestionFile f = oneHop();
    assertEquals(7, f.questions().size());
    Build b = ExemplarBuilder.build(List.of(f), inducer, 1.0, 7);
    assertEquals(6, b.exemplars().size());
    Exemplar first = b.exemplars().get(0);
    assertEquals(new Exemplar("who directed [Alpha]", List.of(new PatternTriple("[0]", "directed_by", "?1")), "?1", "movie_to_director", "qa_dev_1hop.txt:1"), first);
    Exemplar actor = b.exemplars().get(4);
    assertEquals(List.of(new PatternTriple("?1", "starred_actors", "[0]")), actor.pattern());
    assertEquals("qa_dev_1hop.txt:7", actor.source());
    // the question whose topic is not in the graph is held out, not dropped
    assertEquals(List.of(6L), b.heldOut().get(0).stream().map(MetaQaSource.Question::line).toList());
    assertEquals(List.of("topic [Nobody] is not in the graph"), b.leftOut().stream().map(ExemplarBuilder.LeftOut::reason).toList());
    assertEquals(7, b.drawn());
    Group directors = b.groups().get(1);
    assertEquals(new Group(1, "movie_to_director", 5, 5, 4, Chain.parse("directed_by"), 0.8, 1, 0, 1), directors);
    assertEquals("^starred_actors", b.groups().get(0).chain().toString());
  }

  @Test
  void exemplarsAndHeldOutFilesPartitionTheInputAndReadBackAsMetaQa() throws IOException {
    MetaQaSource.QuestionFile f = oneHop();
    Build b = ExemplarBuilder.build(List.of(f), inducer, 0.5, 7);
    Path out = dir.resolve("out/exemplars.jsonl");
    Path held = dir.resolve("out/heldout");
    b.write(out, held);
    List<Exemplar> xs = ExemplarFile.read(out);
    assertEquals(b.exemplars(), xs);
    MetaQaSource.QuestionFile h = MetaQaSource.read(held.resolve("qa_dev_1hop.txt"));
    assertEquals(held.resolve("qa_dev_1hop_qtype.txt"), h.sidecar());
    assertEquals(1, h.hop());
    Set<String> seen = new HashSet<>();
    for (Exemplar x : xs) {
      String line = LINES.get(Integer.parseInt(x.source().substring(x.source().indexOf(':') + 1)) - 1);
      assertTrue(seen.add(line), "once: " + line);
      assertTrue(line.startsWith(x.question() + "\t"));
    }
    for (MetaQaSource.Question q : h.questions()) {
      assertTrue(seen.add(q.text()), "once: " + q.text());
      assertEquals(TYPES.get(LINES.indexOf(q.text())), q.qtype(), "the sidecar keeps each line's type");
    }
    List<String> all = new ArrayList<>(LINES);
    all.remove("");
    assertEquals(new HashSet<>(all), seen);
    assertEquals(7, xs.size() + h.questions().size());
  }

  @Test
  void theChainIsInducedFromTheDrawnQuestionsOnly() throws IOException {
    // Beta: Ann directed and wrote it (a tie, directed_by first); Alpha: written by Bob, directed by Ann.
    // Over both, written_by wins; from Beta alone, directed_by does.
    write("two/qa_x_1hop_qtype.txt", List.of("movie_to_maker", "movie_to_maker"));
    MetaQaSource.QuestionFile f = MetaQaSource.read(write("two/qa_x_1hop.txt", List.of("who made [Beta]\tAnn", "who made [Alpha]\tBob")));
    for (long seed = 1; seed <= 12; seed++) {
      Build b = ExemplarBuilder.build(List.of(f), inducer, 0.5, seed);
      assertEquals(1, b.exemplars().size());
      Exemplar x = b.exemplars().get(0);
      String expected = x.question().contains("Beta") ? "directed_by" : "written_by";
      assertEquals(expected, x.pattern().get(0).relation(), "seed " + seed + ": " + x);
    }
  }

  @Test
  void questionsWithoutTypesGetAChainEach() throws IOException {
    MetaQaSource.QuestionFile f = MetaQaSource.read(write("plain/q_2hop.txt", List.of(
        "films by the director of [Alpha]\tBeta|Delta", "films with the actors of [Gamma]\tZorro")));
    assertNull(f.sidecar());
    Build b = ExemplarBuilder.build(List.of(f), inducer, 1.0, 7);
    assertEquals(1, b.exemplars().size());
    assertEquals(Chain.parse("directed_by/^directed_by").toPattern(), b.exemplars().get(0).pattern());
    assertNull(b.exemplars().get(0).qtype());
    Group g = b.groups().get(0);
    assertNull(g.qtype());
    assertNull(g.chain());
    assertEquals(1, g.zeroF1());
    assertEquals(List.of("no chain of 2 steps reaches an answer"), b.leftOut().stream().map(ExemplarBuilder.LeftOut::reason).toList());
    assertEquals(1, g.chains());
    // a stale sidecar next to the held-out file would be read by kgrag qa: it goes
    Path held = dir.resolve("plain/held");
    Files.createDirectories(held);
    Files.writeString(held.resolve("q_2hop_qtype.txt"), "stale\n");
    b.write(dir.resolve("plain/x.jsonl"), held);
    assertTrue(Files.notExists(held.resolve("q_2hop_qtype.txt")));
    assertEquals(List.of("films with the actors of [Gamma]\tZorro"), Files.readAllLines(held.resolve("q_2hop.txt")));
  }

  private void rejects(String name, List<String> lines, String expected) throws IOException {
    Path p = write("bad/" + name, lines);
    UserInputException e = assertThrows(UserInputException.class, () -> MetaQaSource.read(p));
    assertTrue(e.getMessage().contains(expected), "'" + e.getMessage() + "' should say '" + expected + "'");
  }

  @Test
  void badInputIsNamedByFileAndLine() throws IOException {
    rejects("questions.txt", List.of("who directed [Alpha]\tAnn"), "cannot tell the hop count from the file name");
    rejects("a_1hop.txt", List.of("who directed [Alpha]\tAnn", "who directed [Beta]"), "a_1hop.txt line 2: expected question<TAB>answers");
    rejects("b_1hop.txt", List.of("who directed [Alpha] and [Beta]\tAnn"), "b_1hop.txt line 1: expected one [topic] in the question, found 2");
    rejects("c_1hop.txt", List.of("who directed Alpha\tAnn"), "c_1hop.txt line 1: expected one [topic] in the question, found 0");
    rejects("d_1hop.txt", List.of("who directed [Alpha]\t | "), "d_1hop.txt line 1: no answers");
    write("bad/e_1hop_qtype.txt", List.of("movie_to_director"));
    rejects("e_1hop.txt", List.of("who directed [Alpha]\tAnn", "who directed [Beta]\tAnn"), "has 2 lines but its question-type sidecar");
    UserInputException missing = assertThrows(UserInputException.class, () -> MetaQaSource.read(dir.resolve("none_1hop.txt")));
    assertTrue(missing.getMessage().contains("not found"), missing.getMessage());
  }

  @Test
  void writingRefusesToOverwriteAnInput() throws IOException {
    MetaQaSource.QuestionFile f = oneHop();
    Build b = ExemplarBuilder.build(List.of(f), inducer, 0.5, 7);
    byte[] before = Files.readAllBytes(f.path());
    UserInputException e = assertThrows(UserInputException.class, () -> b.write(dir.resolve("ex.jsonl"), f.path().getParent()));
    assertTrue(e.getMessage().contains("refusing to overwrite input"), e.getMessage());
    assertEquals(new String(before, StandardCharsets.UTF_8), Files.readString(f.path()));
    assertTrue(Files.notExists(dir.resolve("ex.jsonl")), "nothing written");
  }
}
