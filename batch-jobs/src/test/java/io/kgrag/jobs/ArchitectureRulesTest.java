package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The import rules of docs/ARCHITECTURE.md, over the main sources of every module: no method's packages use
 * another method's (a method is a package under {@code io.kgrag.jobs.internal.method}; its packages are those
 * named after it in core, udfs and the index stages), and batch-jobs' packages form no import cycle. A
 * package uses another when its code (comments left out) names a class of it, imported or fully qualified.
 */
class ArchitectureRulesTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final List<String> MODULES = List.of("core", "udfs", "extract-openie", "batch-jobs");
  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.kgrag(?:\\.[a-z_0-9]+)+)\\.[A-Z]");
  private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

  @Test
  void noMethodUsesAnotherMethodsPackages() {
    Map<String, Set<String>> uses = uses(MODULES);
    Set<String> methods = new TreeSet<>();
    for (String p : uses.keySet()) {
      if (p.startsWith("io.kgrag.jobs.internal.method.")) {
        methods.add(p.substring("io.kgrag.jobs.internal.method.".length()).split("\\.")[0]);
      }
    }
    assertTrue(methods.size() >= 5, "methods found under io.kgrag.jobs.internal.method: " + methods);
    List<String> broken = new ArrayList<>();
    uses.forEach(
        (from, tos) -> {
          String a = method(from, methods);
          for (String to : tos) {
            String b = method(to, methods);
            if (a != null && b != null && !a.equals(b)) {
              broken.add(from + " -> " + to);
            }
          }
        });
    assertEquals(List.of(), broken, "a method's package uses another method's: move what both need to a shared package");
  }

  @Test
  void batchJobsPackagesFormNoCycle() {
    Map<String, Set<String>> uses = uses(List.of("batch-jobs"));
    assertTrue(uses.getOrDefault("io.kgrag.jobs.internal.qa", Set.of()).contains("io.kgrag.jobs.internal.pipeline"), "the scan sees the QA job use the pipeline");
    assertEquals(List.of(), cycles(uses), "packages that use each other (through any chain)");
  }

  @Test
  void theLibraryApiNamesNoCommandLineClass() {
    Map<String, Set<String>> uses = uses(List.of("batch-jobs"));
    assertTrue(uses.getOrDefault("io.kgrag.jobs.cli", Set.of()).contains("io.kgrag.api"), "the scan sees the commands use the library API");
    assertEquals(List.of(), uses.getOrDefault("io.kgrag.api", Set.of()).stream().filter(p -> p.startsWith("io.kgrag.jobs.cli")).toList(),
        "io.kgrag.api is the layer the commands stand on: it must not use them");
  }

  @Test
  void theCycleCheckFindsACycleThroughThreePackages() {
    Map<String, Set<String>> uses = new TreeMap<>();
    uses.put("a", Set.of("b"));
    uses.put("b", Set.of("c", "d"));
    uses.put("c", Set.of("a"));
    uses.put("d", Set.of());
    assertEquals(List.of(List.of("a", "b", "c")), cycles(uses));
    uses.put("c", Set.of("d"));
    assertEquals(List.of(), cycles(uses));
  }

  /** The method a package belongs to: core.&lt;m&gt;…, udfs.&lt;m&gt;…, jobs.internal.method.&lt;m&gt;… or jobs.internal.stage.&lt;m&gt;…. */
  private static String method(String pkg, Set<String> methods) {
    for (String base : List.of("io.kgrag.core.", "io.kgrag.udfs.", "io.kgrag.jobs.internal.method.", "io.kgrag.jobs.internal.stage.")) {
      if (pkg.startsWith(base)) {
        String first = pkg.substring(base.length()).split("\\.")[0];
        return methods.contains(first) ? first : null;
      }
    }
    return null;
  }

  /** package -> the other kgrag packages its code names a class of. */
  private static Map<String, Set<String>> uses(List<String> modules) {
    Map<String, String> sources = new TreeMap<>();
    for (String m : modules) {
      Path dir = ROOT.resolve(m).resolve("src/main/java");
      assertTrue(Files.isDirectory(dir), dir + " (run from the batch-jobs module)");
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          sources.put(f.toString(), Files.readString(f, StandardCharsets.UTF_8));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Map<String, Set<String>> uses = new TreeMap<>();
    for (String s : sources.values()) {
      Matcher p = PACKAGE.matcher(s);
      if (p.find()) {
        uses.computeIfAbsent(p.group(1), k -> new TreeSet<>());
      }
    }
    for (String s : sources.values()) {
      Matcher p = PACKAGE.matcher(s);
      if (!p.find()) {
        continue;
      }
      String from = p.group(1);
      Matcher r = REFERENCE.matcher(COMMENT.matcher(s).replaceAll(" "));
      while (r.find()) {
        String to = r.group(1);
        if (!to.equals(from) && uses.containsKey(to)) {
          uses.get(from).add(to);
        }
      }
    }
    return uses;
  }

  /** The strongly connected components of more than one package (Tarjan), each sorted, in order of their first package. */
  static List<List<String>> cycles(Map<String, Set<String>> uses) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new java.util.HashSet<>();
    List<List<String>> out = new ArrayList<>();
    int[] next = {0};
    for (String v : new TreeSet<>(uses.keySet())) {
      if (!index.containsKey(v)) {
        connect(v, uses, index, low, stack, onStack, out, next);
      }
    }
    out.sort((x, y) -> x.get(0).compareTo(y.get(0)));
    return out;
  }

  private static void connect(
      String v, Map<String, Set<String>> uses, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
      List<List<String>> out, int[] next) {
    index.put(v, next[0]);
    low.put(v, next[0]++);
    stack.push(v);
    onStack.add(v);
    for (String w : uses.getOrDefault(v, Set.of())) {
      if (!index.containsKey(w)) {
        connect(w, uses, index, low, stack, onStack, out, next);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      List<String> component = new ArrayList<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      if (component.size() > 1) {
        component.sort(null);
        out.add(component);
      }
    }
  }
}
