package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.DocsCommands.Block;
import io.kgrag.jobs.DocsCommands.Command;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.KgragCatalog;
import io.kgrag.jobs.catalog.PlainSparkSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.Test;

/**
 * README's five-minute tour, executed: its commands run in order, in-process in the test session, with the tour's
 * warehouse (/tmp/kgrag-tour) replaced by a fresh folder and data/ paths resolved against the project root. Each
 * must exit 0, and a {@code text} block right after a command block is what its last command prints: every line of
 * it must be in that command's standard output, in order (runs of spaces compared as one, {@code …} standing for
 * any text, e.g. a latency). Then a plain Spark session in a new JVM, given only the settings docs/catalog.md lists,
 * must return for README's {@code kgrag sql} queries the rows {@code kgrag sql} returns (the issue's catalog test).
 */
class ReadmeTourIT {
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
  void theTourRunsAsReadmeShowsAndAPlainSparkSessionReadsWhatKgragSqlReads() throws Exception {
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
      Cli r = Cli.run(args(c, warehouse).toArray(String[]::new));
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
    aPlainSessionInANewJvmReadsWhatKgragSqlReads(steps, warehouse);
  }

  /**
   * The issue's check of the catalog (docs/catalog.md): a plain Spark session in a new JVM, with only the settings
   * docs/catalog.md lists, returns for each of README's {@code kgrag sql} queries the rows {@code kgrag sql --format
   * json} returns; {@code SHOW TABLES IN kgrag} lists the tables that exist, {@code DESCRIBE kgrag.answers} their
   * declared columns, and kgrag's SQL functions answer as in kgrag's own session.
   */
  private static void aPlainSessionInANewJvmReadsWhatKgragSqlReads(List<Step> steps, String warehouse) throws Exception {
    Catalog catalog = new Catalog(SparkTestSession.get(), warehouse);
    List<String> queries = new ArrayList<>(sqlQueries(steps));
    queries.add("SELECT kg_normalize('The  Matrix') AS label, kg_entity_id('/m/027rn') AS id, kg_relation_text('directed_by') AS words");
    List<List<String>> expected = new ArrayList<>();
    for (String q : queries) {
      Cli sql = Cli.run("sql", "--warehouse", catalog.root(), "--format", "json", "--limit", "0", q);
      assertEquals(0, sql.code, q + "\n" + sql);
      List<String> rows = new ArrayList<>(sql.out.lines().toList());
      assertFalse(rows.isEmpty(), "a query that finds nothing checks nothing: " + q);
      expected.add(rows);
    }
    List<String> statements = new ArrayList<>(queries);
    statements.add("SHOW TABLES IN kgrag");
    statements.add("DESCRIBE kgrag.answers");
    List<List<String>> got = PlainSparkSession.query(SparkTestSession.newDir("tour-plain-session"), statements,
        KgragCatalog.sessionSettings(catalog.root()));
    assertEquals(statements.size(), got.size(), "one result per statement");
    for (int i = 0; i < queries.size(); i++) {
      assertEquals(sorted(expected.get(i)), sorted(got.get(i)), queries.get(i));
    }

    ObjectMapper json = new ObjectMapper();
    List<String> shown = new ArrayList<>();
    for (String row : got.get(queries.size())) {
      JsonNode r = json.readTree(row);
      assertEquals("", r.get("namespace").asText(), row);
      shown.add(r.get("tableName").asText());
    }
    List<String> existing = new ArrayList<>();
    for (KgTable t : KgTable.values()) {
      if (catalog.exists(t)) {
        existing.add(t.tableName());
      }
    }
    assertTrue(existing.containsAll(List.of("entities", "questions", "answers", "evidence", "metrics", "runs")), existing.toString());
    assertEquals(sorted(existing), sorted(shown), "SHOW TABLES IN kgrag");

    List<String> described = new ArrayList<>();
    for (String row : got.get(queries.size() + 1)) {
      JsonNode r = json.readTree(row);
      if (r.get("col_name").asText().isEmpty() || r.get("col_name").asText().startsWith("#")) {
        break;
      }
      described.add(r.get("col_name").asText() + " " + r.get("data_type").asText());
    }
    List<String> declared = new ArrayList<>();
    for (StructField f : KgTable.ANSWERS.schema().fields()) {
      declared.add(f.name() + " " + f.dataType().simpleString());
    }
    assertEquals(declared, described, "DESCRIBE kgrag.answers");
  }

  /** The query of each {@code kgrag sql} step of the tour (its one positional argument, the last). */
  static List<String> sqlQueries(List<Step> steps) {
    List<String> out = new ArrayList<>();
    for (Step s : steps) {
      List<String> a = s.command().args();
      if (!a.isEmpty() && a.get(0).equals("sql")) {
        out.add(a.get(a.size() - 1));
      }
    }
    assertTrue(out.size() >= 2, "README's tour shows fewer than two kgrag sql queries: " + out);
    return out;
  }

  /** A tour command's arguments, its warehouse replaced by {@code warehouse} and data/ paths made absolute. */
  static List<String> args(Command c, String warehouse) {
    Path root = DocsCommands.root();
    return c.args().stream().map(a -> resolved(a, root, warehouse)).toList();
  }

  private static List<String> sorted(List<String> rows) {
    List<String> s = new ArrayList<>(rows);
    s.sort(null); // the same rows; a query without ORDER BY may return them in another order
    return s;
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
