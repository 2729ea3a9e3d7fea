package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.DocsCommands.Command;
import io.kgrag.jobs.DocsCommands.Found;
import io.kgrag.jobs.DocsCommands.Problem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command that README.md and docs/*.md show is one the project accepts: {@code bin/kgrag} lines are parsed by
 * kgrag's own picocli command line (built as {@link KgragMain#execute} builds it, parse only, nothing run),
 * {@code bin/kgrag-cluster} lines against the usage its script prints, project scripts must exist, Maven lines must
 * name existing modules, profiles and test classes. A failure names the file, the line and the parser's message.
 * README.md is at most 250 lines and starts with its two set-up commands, and every relative link of the documents
 * reaches an existing file and, with a #fragment, one of its headings.
 */
class DocsCommandsTest {
  static final int README_MAX_LINES = 250;

  @Test
  void readmeFitsOnAFewScreensAndStartsWithTheTwoSetUpCommands() {
    List<String> readme = DocsCommands.lines(DocsCommands.root().resolve("README.md"));
    assertTrue(readme.size() <= README_MAX_LINES, "README.md has " + readme.size() + " lines, at most " + README_MAX_LINES
        + " allowed: move reference material to docs/");
    assertEquals("# kgrag", readme.get(0), "README.md line 1");
    List<DocsCommands.Block> blocks = DocsCommands.blocks(readme);
    assertFalse(blocks.isEmpty(), "README.md has no code block");
    DocsCommands.Block first = blocks.get(0);
    assertEquals(List.of("bin/kgrag demo", "mvn -B verify"), first.lines(), "README.md's first code block (line " + first.firstLine() + ")");
    for (int i = 1; i < first.firstLine() - 2; i++) {
      assertTrue(readme.get(i).isBlank(), "README.md: only the title may come before the set-up commands, line " + (i + 1) + ": " + readme.get(i));
    }
  }

  @Test
  void everyDocumentedCommandParses() {
    Found found = DocsCommands.find(DocsCommands.documents());
    List<String> problems = check(found);
    assertTrue(problems.isEmpty(), problems.size() + " documented command(s) would not run as shown:\n" + String.join("\n", problems));
    long kgrag = found.commands().stream().filter(c -> c.program().equals("bin/kgrag")).count();
    // the README alone shows a tour of several kgrag commands; the reference shows many more
    assertTrue(kgrag >= 40, "only " + kgrag + " bin/kgrag commands found in " + DocsCommands.documents() + ": is the extraction broken?");
    assertTrue(found.commands().stream().anyMatch(c -> c.program().equals("bin/kgrag-cluster")), "no bin/kgrag-cluster command found");
    assertTrue(found.commands().stream().anyMatch(c -> c.program().equals("mvn")), "no mvn command found");
  }

  @Test
  void aDocumentWithAnUnknownOptionOrAPlaceholderFails(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
    Path doc = dir.resolve("broken.md");
    Files.write(doc, List.of(
        "# broken",
        "",
        "```",
        "bin/kgrag index --input data/demo/metaqa/kb.txt --format pipe --warehouse /tmp/wh",
        "bin/kgrag index --input data/demo/metaqa/kb.txt --formatt pipe --warehouse /tmp/wh",
        "bin/kgrag qa --warehouse <dir> --questions q.txt --dataset d",
        "bin/kgrag frobnicate --warehouse /tmp/wh",
        "bin/kgrag-cluster start --workers 2 --cores 1",
        "mvn -B verify -Pintegraton -pl batch-jobs -Dtest=NoSuchTestIT",
        "bin/no-such-script --x",
        "bin/kgrag index --input data/demo/no-such-file.txt --warehouse /tmp/wh",
        "```"));
    List<String> problems = check(DocsCommands.find(List.of(doc)));
    String all = String.join("\n", problems);
    assertEquals(7, problems.size(), all);
    assertTrue(all.contains(doc + ":5: ") && all.contains("kgrag rejects it: Unknown option") && all.contains("'--formatt'"), all);
    assertTrue(all.contains(doc + ":6: ") && all.contains("unquoted '<'"), all);
    assertTrue(all.contains(doc + ":7: ") && all.contains("frobnicate"), all);
    assertTrue(all.contains(doc + ":8: ") && all.contains("--cores"), all);
    assertTrue(all.contains(doc + ":9: ") && all.contains("profile integraton") && all.contains("test class NoSuchTestIT"), all);
    assertTrue(all.contains(doc + ":10: ") && all.contains("bin/no-such-script"), all);
    assertTrue(all.contains(doc + ":11: ") && all.contains("data/demo/no-such-file.txt"), all);
  }

  @Test
  void linesAreSplitAsAShellSplitsThem() {
    assertEquals(List.of(List.of("bin/kgrag", "sql", "--warehouse", "/tmp/w", "SELECT 'a b' FROM \"t\"")),
        DocsCommands.split("bin/kgrag sql --warehouse /tmp/w \"SELECT 'a b' FROM \\\"t\\\"\"  # a comment").commands);
    assertEquals(List.of(List.of("a", "it's"), List.of("b", "x y")), DocsCommands.split("a it\\'s && b 'x y' > out.txt 2>&1").commands);
    assertEquals(List.of(List.of("bin/kgrag-cluster", "start"), List.of("eval", "$(…)")), DocsCommands.split("eval \"$(bin/kgrag-cluster start)\"").commands);
    assertTrue(DocsCommands.split("bin/kgrag sql \"SELECT").open);
    List<Command> cs = new ArrayList<>();
    List<Problem> ps = new ArrayList<>();
    DocsCommands.commandsOf(Path.of("x.md"), new DocsCommands.Block("", 3, List.of(
        "KGRAG_DRIVER_MEMORY=12g bin/kgrag index --input a.tsv \\",
        "    --warehouse /tmp/w",
        "kgrag ingest     22 lines read (printed output, not a command)",
        "bin/kgrag sql --warehouse /tmp/w \"SELECT a",
        "  FROM kgrag.answers\"")), cs, ps);
    assertEquals(List.of(), ps);
    assertEquals(2, cs.size(), cs.toString());
    assertEquals(List.of("bin/kgrag", "index", "--input", "a.tsv", "--warehouse", "/tmp/w"), cs.get(0).words());
    assertEquals(3, cs.get(0).line());
    assertEquals("SELECT a\n  FROM kgrag.answers", cs.get(1).words().get(4));
    assertEquals(6, cs.get(1).line());
  }

  @Test
  void everyRelativeLinkOfTheDocumentsResolves() {
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path doc : DocsCommands.documents()) {
      List<String> lines = DocsCommands.lines(doc);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = LINK.matcher(lines.get(i));
        while (m.find()) {
          String target = m.group(1);
          if (target.matches("[a-z]+:.*")) {
            continue; // http:, https:, mailto:
          }
          links++;
          String why = brokenLink(doc, target);
          if (why != null) {
            broken.add(doc + ":" + (i + 1) + ": link " + target + ": " + why);
          }
        }
      }
    }
    assertTrue(broken.isEmpty(), String.join("\n", broken));
    assertTrue(links >= 20, "only " + links + " relative links found: is the link pattern broken?");
  }

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  /** Why a relative Markdown link does not resolve (its file, and its #anchor among the file's headings), or null. */
  static String brokenLink(Path doc, String target) {
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    Path resolved = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
    if (!Files.exists(resolved)) {
      return resolved + " does not exist";
    }
    if (hash < 0 || !resolved.toString().endsWith(".md")) {
      return null;
    }
    String anchor = target.substring(hash + 1);
    Set<String> anchors = new HashSet<>();
    boolean fenced = false;
    for (String line : DocsCommands.lines(resolved)) {
      fenced ^= line.strip().startsWith("```");
      if (!fenced && line.matches("#{1,6} .*")) {
        anchors.add(anchor(line.replaceFirst("^#+ ", "")));
      }
    }
    return anchors.contains(anchor) ? null : "no heading of " + resolved.getFileName() + " has the anchor #" + anchor;
  }

  /** GitHub's anchor of a heading: lower case, punctuation but '-' and '_' removed, spaces as '-'. */
  static String anchor(String heading) {
    return heading.strip().toLowerCase(java.util.Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
  }

  @Test
  void headingsGetGitHubsAnchors() {
    assertEquals("kgrag-qa---method-simgrag-and-kgrag-exemplars", anchor("`kgrag qa --method simgrag` and `kgrag exemplars`"));
    assertEquals("sg-rag-kgrag-qa---method-sgrag-the-default", anchor("SG-RAG: `kgrag qa --method sgrag` (the default)"));
    assertEquals("question-answering-over-text-musique-100", anchor("Question answering over text (MuSiQue-100)"));
  }

  // ---- the checks

  static List<String> check(Found found) {
    List<String> problems = new ArrayList<>();
    found.problems().forEach(p -> problems.add(p.toString()));
    Path root = DocsCommands.root();
    Project project = Project.of(root);
    for (Command c : found.commands()) {
      String why = why(c, root, project);
      if (why != null) {
        problems.add(c.where() + ": " + why + ": " + c.text());
      }
    }
    return problems;
  }

  /** Why the command would not run as shown, or null. */
  private static String why(Command c, Path root, Project project) {
    String program = c.program();
    List<String> args = c.args();
    switch (program) {
      case "bin/kgrag":
        try {
          new CommandLine(new KgragMain()).parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
          return "kgrag rejects it: " + String.valueOf(e.getMessage()).replaceAll("\\s*\\R\\s*", " ");
        }
        return missingFiles(args, root);
      case "bin/kgrag-cluster":
        return clusterProblem(args, root);
      case "mvn":
        return mavenProblem(args, project);
      case "python3":
      case "bash":
        return args.isEmpty() || args.get(0).startsWith("-") || Files.exists(root.resolve(args.get(0))) ? null
            : args.get(0) + " is not a file of the project";
      default:
        if (DocsCommands.PROGRAMS.contains(program) || program.startsWith("$SPARK_HOME/")) {
          return null;
        }
        return Files.isRegularFile(root.resolve(program)) ? null : program + " is not a file of the project";
    }
  }

  /** Project data or profiles an argument names that do not exist (outputs such as bench/out/ are not checked). */
  private static String missingFiles(List<String> args, Path root) {
    for (String a : args) {
      String path = a.contains("=") && a.startsWith("--") ? a.substring(a.indexOf('=') + 1) : a;
      if ((path.startsWith("data/") || path.startsWith("conf/")) && !path.contains("*") && !Files.exists(root.resolve(path))) {
        return path + " does not exist in the project";
      }
    }
    return null;
  }

  private static final Pattern CLUSTER_USAGE = Pattern.compile("^#\\s+bin/kgrag-cluster\\s+(\\S+)(.*)$");

  /** A bin/kgrag-cluster line against the usage at the top of the script (what it prints for no arguments). */
  private static String clusterProblem(List<String> args, Path root) {
    Path script = root.resolve("bin/kgrag-cluster");
    java.util.Map<String, Set<String>> usage = new java.util.HashMap<>();
    for (String line : DocsCommands.lines(script)) {
      Matcher m = CLUSTER_USAGE.matcher(line);
      if (m.matches()) {
        Set<String> options = new HashSet<>();
        Matcher o = Pattern.compile("--[a-z][a-z-]*").matcher(m.group(2));
        while (o.find()) {
          options.add(o.group());
        }
        usage.put(m.group(1), options);
      }
    }
    if (usage.isEmpty()) {
      return script + " has no usage lines '#   bin/kgrag-cluster <command> …'";
    }
    if (args.isEmpty() || !usage.containsKey(args.get(0))) {
      return "bin/kgrag-cluster has no command " + (args.isEmpty() ? "(none given)" : "'" + args.get(0) + "'") + "; it has " + usage.keySet();
    }
    Set<String> allowed = usage.get(args.get(0));
    for (int i = 1; i < args.size(); i++) {
      String a = args.get(i);
      if (a.startsWith("--") && !allowed.contains(a)) {
        return "bin/kgrag-cluster " + args.get(0) + " has no option " + a + "; it has " + allowed;
      }
      if (!a.startsWith("--") && (i == 1 || !args.get(i - 1).startsWith("--"))) {
        return "bin/kgrag-cluster " + args.get(0) + ": unexpected argument " + a;
      }
    }
    return null;
  }

  /** A Maven line: its -pl modules, -P profiles and -Dtest classes must exist. */
  private static String mavenProblem(List<String> args, Project project) {
    List<String> wrong = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("-pl") && i + 1 < args.size()) {
        for (String m : args.get(i + 1).split(",")) {
          if (!project.modules.contains(m)) {
            wrong.add("module " + m);
          }
        }
      } else if (a.startsWith("-P") && a.length() > 2) {
        for (String p : a.substring(2).split(",")) {
          if (!project.profiles.contains(p.replaceFirst("^!", ""))) {
            wrong.add("profile " + p);
          }
        }
      } else if (a.startsWith("-Dtest=")) {
        for (String t : a.substring("-Dtest=".length()).split(",")) {
          String name = t.replaceFirst("#.*", "");
          if (!project.testClasses.contains(name)) {
            wrong.add("test class " + name);
          }
        }
      }
    }
    return wrong.isEmpty() ? null : "the project has no " + String.join(", no ", wrong) + " (modules " + project.modules + ", profiles " + project.profiles + ")";
  }

  /** The modules, profiles and test class names of the Maven project. */
  private record Project(Set<String> modules, Set<String> profiles, Set<String> testClasses) {
    static Project of(Path root) {
      String pom = String.join("\n", DocsCommands.lines(root.resolve("pom.xml")));
      Set<String> modules = matches(Pattern.compile("<module>([^<]+)</module>"), pom);
      Set<String> profiles = new HashSet<>();
      Set<String> tests = new HashSet<>();
      for (String m : modules) {
        Path mp = root.resolve(m).resolve("pom.xml");
        String text = Files.exists(mp) ? String.join("\n", DocsCommands.lines(mp)) : "";
        profiles.addAll(matches(Pattern.compile("<profile>\\s*<id>([^<]+)</id>"), text));
        Path src = root.resolve(m).resolve("src/test/java");
        if (Files.isDirectory(src)) {
          try (Stream<Path> s = Files.walk(src)) {
            tests.addAll(s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".java"))
                .map(f -> f.substring(0, f.length() - 5)).collect(Collectors.toSet()));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
      profiles.addAll(matches(Pattern.compile("<profile>\\s*<id>([^<]+)</id>"), pom));
      return new Project(modules, profiles, tests);
    }

    private static Set<String> matches(Pattern p, String text) {
      Set<String> out = new HashSet<>();
      Matcher m = p.matcher(text);
      while (m.find()) {
        out.add(m.group(1).strip());
      }
      return out;
    }
  }
}
