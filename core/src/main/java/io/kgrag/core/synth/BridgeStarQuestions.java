package io.kgrag.core.synth;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Multi-constraint questions with known answers over a {@link SyntheticKg}, built as ERQA's are (SG-RAG
 * Appendix G, "Bridge-Star Subgraph Construction"): two star nodes of one type that share bridge
 * neighbours; one star is hidden and becomes the answer, and the question names the shared bridge
 * neighbours plus enough of the answer's own neighbours that no other entity satisfies every constraint.
 * The other star is a plausible distractor: it satisfies the bridge constraints but not all of them.
 *
 * <p>Stars are drawn by picking an edge at random, so high-degree entities are drawn more often, as in the
 * paper's "pair of high-degree star nodes". Every constraint is an edge from the answer
 * ({@code answer --relation--> constant}); the question reads "Which {type} is {relation} {constant}, …?",
 * its gold answer the answer's label. Uniqueness is checked exactly against the whole graph.
 */
public final class BridgeStarQuestions {
  /** One question: its text, its answer, and the constraints it names ({@code relation → constant}). */
  public record Question(String qid, String text, String answer, int constraints, int bridges, String distractor) {}

  private final SyntheticKg kg;
  private final int[] outStart;
  /** (relation, object, subject) packed and sorted: the subjects of each (relation, object). */
  private final long[] byRelationObject;

  public BridgeStarQuestions(SyntheticKg kg) {
    this.kg = kg;
    int n = kg.entityCount();
    int m = kg.edgeCount();
    outStart = new int[n + 1];
    for (int i = 0; i < m; i++) {
      outStart[SyntheticKg.subject(kg.edge(i)) + 1]++;
    }
    for (int v = 0; v < n; v++) {
      outStart[v + 1] += outStart[v];
    }
    byRelationObject = new long[m];
    for (int i = 0; i < m; i++) {
      long e = kg.edge(i);
      byRelationObject[i] = relationObjectKey(SyntheticKg.relation(e), SyntheticKg.object(e), SyntheticKg.subject(e));
    }
    Arrays.sort(byRelationObject);
  }

  private static long relationObjectKey(int r, int o, int s) {
    return ((long) r << (2 * SyntheticKg.ENTITY_BITS)) | ((long) o << SyntheticKg.ENTITY_BITS) | s;
  }

  /** Index range [from, to) of the subjects of (r, o) in {@link #byRelationObject}. */
  private int[] subjects(int r, int o) {
    long lo = relationObjectKey(r, o, 0);
    long hi = relationObjectKey(r, o, (1 << SyntheticKg.ENTITY_BITS) - 1);
    int from = Arrays.binarySearch(byRelationObject, lo);
    from = from >= 0 ? from : -from - 1;
    int to = Arrays.binarySearch(byRelationObject, hi);
    to = to >= 0 ? to + 1 : -to - 1;
    return new int[] {from, to};
  }

  /** The subject of entry {@code i} of {@link #byRelationObject}: its low bits, where an edge keeps its object. */
  private int subjectAt(int i) {
    return SyntheticKg.object(byRelationObject[i]);
  }

  private boolean hasEdge(int s, int r, int o) {
    return Arrays.binarySearch(byRelationObject, relationObjectKey(r, o, s)) >= 0;
  }

  /**
   * Up to {@code count} questions, each with a distinct answer, naming between {@code minConstraints} and
   * {@code maxConstraints} constraints, at least one of them a bridge shared with the distractor.
   */
  public List<Question> generate(int count, int minConstraints, int maxConstraints, long seed) {
    if (minConstraints < 2 || maxConstraints < minConstraints) {
      throw new IllegalArgumentException("constraints must satisfy 2 <= min <= max: " + minConstraints + ", " + maxConstraints);
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Question> out = new ArrayList<>();
    Set<Integer> usedAnswers = new HashSet<>();
    long attempts = 0;
    long maxAttempts = 200L * count + 1000;
    while (out.size() < count && attempts++ < maxAttempts) {
      int x = SyntheticKg.subject(kg.edge(rnd.nextInt(kg.edgeCount())));
      int deg = outStart[x + 1] - outStart[x];
      if (deg < minConstraints || usedAnswers.contains(x)) {
        continue;
      }
      int[] mine = shuffled(outStart[x], outStart[x + 1], rnd);
      // the distractor: another subject of one of x's (relation, object) pairs
      int z = -1;
      for (int i : mine) {
        long e = kg.edge(i);
        int[] range = subjects(SyntheticKg.relation(e), SyntheticKg.object(e));
        if (range[1] - range[0] >= 2) {
          int pickAt = range[0] + rnd.nextInt(range[1] - range[0]);
          int cand = subjectAt(pickAt);
          z = cand != x ? cand : subjectAt(pickAt == range[0] ? pickAt + 1 : range[0]);
          break;
        }
      }
      if (z < 0) {
        continue;
      }
      List<Integer> bridges = new ArrayList<>();
      List<Integer> unique = new ArrayList<>();
      for (int i : mine) {
        long e = kg.edge(i);
        (hasEdge(z, SyntheticKg.relation(e), SyntheticKg.object(e)) ? bridges : unique).add(i);
      }
      List<Integer> chosen = new ArrayList<>();
      Set<Integer> constants = new HashSet<>();
      int nBridges = 0;
      for (int i : bridges) {
        if (nBridges < 2 && addConstant(i, x, constants)) {
          chosen.add(i);
          nBridges++;
        }
      }
      boolean answered = false;
      for (int k = 0; k <= unique.size() && chosen.size() <= maxConstraints; k++) {
        if (chosen.size() >= minConstraints && onlyAnswer(chosen, x)) {
          answered = true;
          break;
        }
        if (k < unique.size() && addConstant(unique.get(k), x, constants)) {
          chosen.add(unique.get(k));
        }
      }
      if (!answered || chosen.size() > maxConstraints) {
        continue;
      }
      usedAnswers.add(x);
      out.add(new Question(String.format("synth-%06d", out.size() + 1), text(x, chosen), kg.label(x), chosen.size(), nBridges, kg.label(z)));
    }
    return out;
  }

  private boolean addConstant(int edgeIndex, int x, Set<Integer> constants) {
    int o = SyntheticKg.object(kg.edge(edgeIndex));
    return o != x && constants.add(o);
  }

  /** Whether x is the only entity with every chosen (relation, object) edge. */
  private boolean onlyAnswer(List<Integer> chosen, int x) {
    int best = -1;
    int bestSize = Integer.MAX_VALUE;
    for (int i : chosen) {
      long e = kg.edge(i);
      int[] r = subjects(SyntheticKg.relation(e), SyntheticKg.object(e));
      if (r[1] - r[0] < bestSize) {
        bestSize = r[1] - r[0];
        best = i;
      }
    }
    long be = kg.edge(best);
    int[] range = subjects(SyntheticKg.relation(be), SyntheticKg.object(be));
    for (int p = range[0]; p < range[1]; p++) {
      int s = subjectAt(p);
      if (s == x) {
        continue;
      }
      boolean all = true;
      for (int i : chosen) {
        long e = kg.edge(i);
        if (!hasEdge(s, SyntheticKg.relation(e), SyntheticKg.object(e))) {
          all = false;
          break;
        }
      }
      if (all) {
        return false;
      }
    }
    return true;
  }

  private String text(int x, List<Integer> chosen) {
    StringBuilder b = new StringBuilder("Which ").append(kg.typeOf(x)).append(" is ");
    for (int k = 0; k < chosen.size(); k++) {
      long e = kg.edge(chosen.get(k));
      if (k > 0) {
        b.append(k == chosen.size() - 1 ? " and " : ", ");
      }
      b.append(kg.relationPhrase(SyntheticKg.relation(e))).append(' ').append(kg.label(SyntheticKg.object(e)));
    }
    return b.append('?').toString();
  }

  private static int[] shuffled(int from, int to, SplittableRandom rnd) {
    int[] a = SyntheticKg.permutation(to - from, rnd);
    for (int i = 0; i < a.length; i++) {
      a[i] += from;
    }
    return a;
  }

  /**
   * Writes questions as ERQA's CSV ({@code qid,query,answer} plus {@code constraints,bridges,distractor},
   * which {@code kgrag qa} keeps in {@code questions.meta}), through a temporary file renamed into place.
   */
  public static void writeCsv(List<Question> questions, Path file) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      w.write("qid,query,answer,constraints,bridges,distractor\n");
      for (Question q : questions) {
        w.write(q.qid() + "," + quote(q.text()) + "," + quote(q.answer()) + "," + q.constraints() + "," + q.bridges() + "," + quote(q.distractor()) + "\n");
      }
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static String quote(String s) {
    return "\"" + s.replace("\"", "\"\"") + "\"";
  }
}
