package io.kgrag.core.exemplar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExemplarFileTest {
  @TempDir Path dir;

  private static final String OK =
      "{\"question\":\"who directed [Alpha]\",\"pattern\":[[\"[0]\",\"directed_by\",\"?1\"]],\"answer\":\"?1\"}";

  private static Exemplar twoHop() {
    return new Exemplar(
        "who directed the films starring [Grégoire Colin]",
        List.of(new PatternTriple("?1", "starred_actors", "[0]"), new PatternTriple("?1", "directed_by", "?2")),
        "?2", "actor_to_movie_to_director", "qa_dev_2hop.txt:17");
  }

  @Test
  void roundTripKeepsEveryFieldAndWritesNoTemporaryFiles() throws IOException {
    List<Exemplar> xs = List.of(
        twoHop(),
        new Exemplar("what films did [Paris, Texas] and [Wim Wenders] share", List.of(
            new PatternTriple("[0]", "?", "?1"), new PatternTriple("?1", "directed_by", "[1]")), "?1", null, null));
    Path f = dir.resolve("sub/exemplars.jsonl");
    ExemplarFile.write(f, xs);
    assertEquals(xs, ExemplarFile.read(f));
    List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
    assertEquals(2, lines.size());
    assertEquals(
        "{\"question\":\"who directed the films starring [Grégoire Colin]\",\"pattern\":[[\"?1\",\"starred_actors\",\"[0]\"],"
            + "[\"?1\",\"directed_by\",\"?2\"]],\"answer\":\"?2\",\"qtype\":\"actor_to_movie_to_director\",\"source\":\"qa_dev_2hop.txt:17\"}",
        lines.get(0));
    // overwriting replaces the file whole, and leaves nothing else behind
    ExemplarFile.write(f, List.of(twoHop()));
    assertEquals(List.of(twoHop()), ExemplarFile.read(f));
    try (Stream<Path> s = Files.list(f.getParent())) {
      assertEquals(List.of(f), s.toList());
    }
    // the file gets the permissions of any new file there, not a temporary file's owner-only ones
    if (f.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Path plain = Files.createFile(dir.resolve("plain"));
      assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(f));
    }
  }

  @Test
  void blankLinesAreSkippedButCounted() {
    String text = "\uFEFF" + OK + "\n\n   \n" + OK + "\n";
    assertEquals(2, ExemplarFile.read(new StringReader(text), "x.jsonl").size());
    UserInputException e = assertThrows(UserInputException.class, () -> ExemplarFile.read(new StringReader(OK + "\n\n\n{"), "x.jsonl"));
    assertTrue(e.getMessage().startsWith("x.jsonl:4: not JSON"), e.getMessage());
  }

  private static void fails(String line, String expected) {
    UserInputException e = assertThrows(UserInputException.class, () -> ExemplarFile.read(new StringReader(OK + "\n" + line + "\n"), "ex.jsonl"));
    assertTrue(e.getMessage().startsWith("ex.jsonl:2: "), e.getMessage());
    assertTrue(e.getMessage().contains(expected), "'" + e.getMessage() + "' should say '" + expected + "'");
  }

  @Test
  void everyBadLineIsNamedWithWhatIsWrong() {
    fails("{\"question\":", "not JSON");
    fails(OK + " trailing", "not JSON");
    fails("[1,2]", "expected a JSON object");
    fails("{\"pattern\":[[\"[0]\",\"r\",\"?1\"]],\"answer\":\"?1\"}", "missing field question");
    fails("{\"question\":\"q [a]\",\"answer\":\"?1\"}", "missing field pattern");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"[0]\",\"r\",\"?1\"]]}", "missing field answer");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"[0]\",\"r\",\"?1\"]],\"answer\":1}", "field answer must be a string");
    fails("{\"question\":\"q [a]\",\"pattern\":{},\"answer\":\"?1\"}", "pattern must be an array");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"[0]\",\"r\"]],\"answer\":\"?1\"}", "pattern triple 0 must be an array of three strings");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"[0]\",\"r\",1]],\"answer\":\"?1\"}", "pattern triple 0 must be an array of three strings");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"[0]\",\"r\",\"?1\"],[\"x\",\"r\",\"?1\"]],\"answer\":\"?1\"}", "pattern triple 1: head 'x' is not a term");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"?0\",\"r\",\"?1\"]],\"answer\":\"?1\"}", "head '?0' is not a term");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"?1\",\" \",\"[0]\"]],\"answer\":\"?1\"}", "relation is empty");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"?1\",\"r\",\"?1\"]],\"answer\":\"?1\"}", "same term");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"[1]\",\"r\",\"?1\"]],\"answer\":\"?1\"}", "refers to [1] but the question has 1 bracketed mention");
    fails("{\"question\":\"q a\",\"pattern\":[[\"[0]\",\"r\",\"?1\"]],\"answer\":\"?1\"}", "refers to [0] but the question has 0 bracketed mentions");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"[0]\",\"r\",\"?1\"]],\"answer\":\"?2\"}", "answer ?2 does not occur in the pattern");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"[0]\",\"r\",\"?1\"]],\"answer\":\"[0]\"}", "answer '[0]' is not an unknown");
    fails("{\"question\":\"q [a]\",\"pattern\":[],\"answer\":\"?1\"}", "pattern is empty");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"[0]\",\"r\",\"?1\"],[\"?2\",\"r\",\"?3\"]],\"answer\":\"?1\"}", "not connected");
    fails("{\"question\":\" \",\"pattern\":[[\"[0]\",\"r\",\"?1\"]],\"answer\":\"?1\"}", "question is empty");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"[0]\",\"r\",\"?1\"]],\"answer\":\"?1\",\"patern\":1}", "unknown field patern");
    fails("{\"question\":\"q [a]\",\"question\":\"q [b]\",\"pattern\":[[\"[0]\",\"r\",\"?1\"]],\"answer\":\"?1\"}", "not JSON (Duplicate field");
    fails("{\"question\":\"q [a]\",\"pattern\":[[\"[0]\",\"r\",\"?1\"]],\"answer\":\"?1\",\"qtype\":[]}", "field qtype must be a string");
  }

  @Test
  void unreadableFilesSayWhich() throws IOException {
    UserInputException missing = assertThrows(UserInputException.class, () -> ExemplarFile.read(dir.resolve("none.jsonl")));
    assertTrue(missing.getMessage().contains("exemplar file not found"), missing.getMessage());
    Path bad = dir.resolve("bad.jsonl");
    byte[] line2 = {'{', '"', (byte) 0xC3, (byte) 0x28, '"', '}', '\n'};
    byte[] content = new byte[OK.length() + 1 + line2.length];
    System.arraycopy((OK + "\n").getBytes(StandardCharsets.UTF_8), 0, content, 0, OK.length() + 1);
    System.arraycopy(line2, 0, content, OK.length() + 1, line2.length);
    Files.write(bad, content);
    UserInputException e = assertThrows(UserInputException.class, () -> ExemplarFile.read(bad));
    assertTrue(e.getMessage().contains("bad.jsonl:2: not valid UTF-8"), e.getMessage());
  }

  @Test
  void mentionsMaskedAndPlain() {
    Exemplar x = new Exemplar("what films did [ Paris, Texas ]  and [Wim Wenders] share", List.of(
        new PatternTriple("[0]", "?", "?1"), new PatternTriple("?1", "directed_by", "[1]")), "?1", null, null);
    assertEquals(List.of("Paris, Texas", "Wim Wenders"), x.mentions());
    assertEquals("what films did <e> and <e> share", x.masked("<e>"));
    assertEquals("what films did  Paris, Texas   and Wim Wenders share", x.plain());
    assertEquals("who directed the films starring Grégoire Colin", twoHop().plain());
    assertEquals("who directed the films starring $1", twoHop().masked("$1"));
  }
}
