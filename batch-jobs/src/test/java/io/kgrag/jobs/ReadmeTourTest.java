package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.DocsCommands.Block;
import io.kgrag.jobs.DocsCommands.Command;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * README's five-minute tour, executed: its commands run in order, in-process in the test session, with the tour's
 * warehouse (/tmp/kgrag-tour) replaced by a fresh folder and data/ paths resolved against the project root. Each
 * must exit 0, and a {@code text} block right after a command block is what its last command prints: every line of
 * it must be in that command's standard output, in order (runs of spaces compared as one, {@code …} standing for
 * any text, e.g. a latency).
 */
class ReadmeTourTest {
  static final String SECTION = "## A five-minute tour";
  static final String TOUR_WAREHOUSE = "/tmp/kgrag-tour";

  /** One step of the tour: a command and the lines README says it prints (maybe none). */
  record Step(Command command, List<String> prints) {}

  static List<Step> steps(Path readme) {
    List<String> lines = DocsCommands.lines(readme);
    int start = lines.indexOf(SECTION);
    assertTrue(start >= 0, readme + " has no section '" + SECTION + "'");
    int end = start + 1;
    while (end < lines.size() && !lines.get(end).startsWith("## ")) {
      end++;
    }
    List<String> section = new ArrayList<>(lines.subList(0, end));
    // blank out what precedes the section, keeping line numbers
    for (int i = 0; i <= start; i++) {
      section.set(i, "");
    }
    List<Step> steps = new ArrayList<>();
    for (Block b : DocsCommands.blocks(section)) {
      if (b.info().equals("text")) {
        assertTrue(!steps.isEmpty(), readme + ":" + b.firstLine() + ": an output block before any tour command");
        Step last = steps.remove(steps.size() - 1);
        List<String> prints = new ArrayList<>(last.prints());
        b.lines().stream().filter(l -> !l.isBlank()).forEach(prints::add);
        steps.add(new Step(last.command(), prints));
        continue;
      }
      List<Command> cs = new ArrayList<>();
      List<DocsCommands.Problem> problems = new ArrayList<>();
      DocsCommands.commandsOf(readme, b, cs, problems);
      assertEquals(List.of(), problems);
      cs.forEach(c -> steps.add(new Step(c, List.of())));
    }
    return steps;
  }

  @Test
  void theTourRunsAsReadmeShows() {
    Path root = DocsCommands.root();
    List<Step> steps = steps(root.resolve("README.md"));
    List<String> commands = steps.stream().map(s -> s.command().args().isEmpty() ? "" : s.command().args().get(0)).toList();
    // the tour must stay a tour: it indexes, answers, scores and queries the answers
    assertTrue(commands.containsAll(List.of("index", "qa", "eval", "sql")), "the tour's kgrag commands: " + commands);
    assertTrue(steps.stream().anyMatch(s -> !s.prints().isEmpty()), "the tour shows no output to check");
    String warehouse = SparkTestSession.newDir("tour").toString();
    for (Step s : steps) {
      Command c = s.command();
      assertEquals("bin/kgrag", c.program(), c.where() + ": the tour runs only kgrag commands");
      String[] args = c.args().stream().map(a -> resolved(a, root, warehouse)).toArray(String[]::new);
      Cli r = Cli.run(args);
      assertEquals(0, r.code, () -> c.where() + ": " + c.text() + "\n" + r);
      int from = 0;
      String out = collapse(r.out);
      for (String expected : s.prints()) {
        Pattern p = pattern(expected);
        java.util.regex.Matcher m = p.matcher(out);
        assertTrue(m.find(from), c.where() + ": README says it prints\n  " + expected + "\nafter what it matched so far; it printed:\n" + r.out);
        from = m.end();
      }
    }
  }

  private static String resolved(String arg, Path root, String warehouse) {
    if (arg.equals(TOUR_WAREHOUSE) || arg.startsWith(TOUR_WAREHOUSE + "/")) {
      return warehouse + arg.substring(TOUR_WAREHOUSE.length());
    }
    return arg.startsWith("data/") ? root.resolve(arg).toString() : arg;
  }

  private static String collapse(String s) {
    return s.replaceAll("[ \\t]+", " ").replaceAll("(?m)^ | $", "");
  }

  /** A printed line as README shows it: spaces collapsed, '…' any text within the line. */
  static Pattern pattern(String line) {
    StringBuilder p = new StringBuilder("(?m)");
    String[] parts = collapse(line.strip()).split("…", -1);
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        p.append("[^\\n]*");
      }
      p.append(Pattern.quote(parts[i]));
    }
    return Pattern.compile(p.toString());
  }
}
