package io.kgrag.core.exemplar;

import io.kgrag.core.UserInputException;
import io.kgrag.core.exemplar.MetaQaSource.Question;
import io.kgrag.core.exemplar.MetaQaSource.QuestionFile;
import io.kgrag.core.qa.io.MetaQaQuestions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns labelled MetaQA questions into an exemplar set and held-out question files.
 *
 * <ol>
 *   <li>Each file's questions are split by {@link ExemplarSplit} (stratified by question type): a drawn
 *       share become exemplar candidates, the rest are held out.
 *   <li>For each (hop, question type), {@link ChainInducer} induces the relation chain from the drawn
 *       questions <i>only</i>, so that no held-out answer shapes the exemplars. Questions without a type
 *       get a chain each.
 *   <li>A drawn question becomes an exemplar, its question with the chain's pattern, when its topic is in
 *       the graph and the chain reaches at least one of its answers (F1 &gt; 0). A drawn question that
 *       fails (topic not in the graph, F1 0) was never shown as an example, so it joins the held-out
 *       questions: dropping it would hide from evaluation exactly the questions the graph cannot answer.
 * </ol>
 *
 * So every input line is either in the exemplar file or in its held-out file, never both. The result is
 * deterministic for the same inputs, graph, fraction and seeds.
 */
public final class ExemplarBuilder {
  private ExemplarBuilder() {}

  /**
   * What became of one (hop, question type).
   *
   * @param hop the hop count
   * @param qtype the question type, or null for questions without one
   * @param questions the type's questions in the input
   * @param drawn how many were drawn as exemplar candidates
   * @param exemplars how many of those became exemplars
   * @param chain the induced chain, or null (no chain found, or a chain per question when qtype is null)
   * @param meanF1 the chain's F1 averaged over the drawn questions
   * @param topicMissing drawn questions whose topic is not in the graph
   * @param zeroF1 drawn questions whose topic is in the graph but whose chain reaches none of the answers
   * @param chains the distinct chains used by the type's exemplars (1 for a typed group with exemplars)
   */
  public record Group(
      int hop, String qtype, int questions, int drawn, int exemplars, Chain chain, double meanF1, int topicMissing, int zeroF1, int chains) {}

  /**
   * A drawn question that did not become an exemplar (it is held out).
   *
   * @param question the question
   * @param reason why: its topic is not in the graph, or the chain reaches none of its answers
   */
  public record LeftOut(Question question, String reason) {}

  /**
   * A built exemplar set.
   *
   * @param files the input files
   * @param exemplars the exemplars in input order
   * @param heldOut per input file (by position), its held-out questions in line order
   * @param groups one per (hop, qtype), by hop then type
   * @param leftOut the drawn questions that did not become exemplars, in input order
   */
  public record Build(
      List<QuestionFile> files, List<Exemplar> exemplars, List<List<Question>> heldOut, List<Group> groups, List<LeftOut> leftOut) {
    public Build {
      files = List.copyOf(files);
      exemplars = List.copyOf(exemplars);
      heldOut = heldOut.stream().map(List::copyOf).toList();
      groups = List.copyOf(groups);
      leftOut = List.copyOf(leftOut);
    }

    /** Questions drawn as exemplar candidates. */
    public int drawn() {
      return exemplars.size() + leftOut.size();
    }

    /** Questions in the input. */
    public int questions() {
      return files.stream().mapToInt(f -> f.questions().size()).sum();
    }

    /** Questions held out. */
    public int heldOutCount() {
      return heldOut.stream().mapToInt(List::size).sum();
    }

    /**
     * Writes the exemplar file and, in {@code heldOutDir}, one held-out file per input (and its sidecar
     * when the input has one) under the input's name. Every file is staged first and then moved into
     * place, so a failure while writing leaves the targets as they were. A stale sidecar in {@code
     * heldOutDir} next to a held-out file whose input has none is removed, or {@code kgrag qa} would read
     * it.
     *
     * @throws UserInputException when a target is one of the inputs or two inputs share a file name
     */
    public void write(Path exemplarFile, Path heldOutDir) {
      Set<Path> inputs = new HashSet<>();
      for (QuestionFile f : files) {
        inputs.add(real(f.path()));
        if (f.sidecar() != null) {
          inputs.add(real(f.sidecar()));
        }
      }
      Map<Path, byte[]> out = new LinkedHashMap<>();
      out.put(exemplarFile, ExemplarFile.bytes(exemplars));
      List<Path> stale = new ArrayList<>();
      for (int i = 0; i < files.size(); i++) {
        QuestionFile f = files.get(i);
        for (Map.Entry<Path, byte[]> e : MetaQaSource.heldOutFiles(f, heldOut.get(i), heldOutDir).entrySet()) {
          if (out.containsKey(e.getKey())) {
            throw new UserInputException(
                "two outputs would be written to " + e.getKey() + " (inputs with the same file name, or --out inside --heldout-dir under an input's name)");
          }
          out.put(e.getKey(), e.getValue());
        }
        if (f.sidecar() == null) {
          stale.add(heldOutDir.resolve(MetaQaQuestions.sidecarName(f.name())));
        }
      }
      for (Path p : out.keySet()) {
        if (inputs.contains(real(p))) {
          throw new UserInputException("refusing to overwrite input " + p + ": write the exemplars and held-out files elsewhere");
        }
      }
      AtomicFiles.writeAll(out);
      for (Path p : stale) {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot remove stale sidecar " + p, e);
        }
      }
    }

    private static Path real(Path p) {
      try {
        return Files.exists(p) ? p.toRealPath() : p.toAbsolutePath().normalize();
      } catch (IOException e) {
        return p.toAbsolutePath().normalize();
      }
    }
  }

  /**
   * Builds the exemplar set.
   *
   * @param fraction the share of each question type drawn as exemplar candidates, in [0, 1]
   * @param seed the split's seed
   */
  public static Build build(List<QuestionFile> files, ChainInducer inducer, double fraction, long seed) {
    // 1. split each file, stratified by type
    List<List<Question>> heldOut = new ArrayList<>();
    Map<Question, Integer> fileOf = new IdentityHashMap<>();
    Map<String, List<Question>> drawnByGroup = new TreeMap<>();
    Map<String, Integer> sizeByGroup = new HashMap<>();
    Map<String, Question> firstOfGroup = new HashMap<>();
    for (QuestionFile f : files) {
      ExemplarSplit.Result<Question> s = ExemplarSplit.split(f.questions(), Question::qtype, fraction, seed);
      heldOut.add(new ArrayList<>(s.heldOut()));
      for (Question q : s.exemplars()) {
        drawnByGroup.computeIfAbsent(groupKey(q), k -> new ArrayList<>()).add(q);
      }
      for (Question q : f.questions()) {
        fileOf.put(q, heldOut.size() - 1);
        sizeByGroup.merge(groupKey(q), 1, Integer::sum);
        firstOfGroup.putIfAbsent(groupKey(q), q);
        drawnByGroup.computeIfAbsent(groupKey(q), k -> new ArrayList<>());
      }
    }
    // 2. induce a chain per group from its drawn questions; 3. keep those the chain answers
    Map<Question, Exemplar> exemplarOf = new IdentityHashMap<>();
    Map<Question, String> leftOutOf = new IdentityHashMap<>();
    List<Group> groups = new ArrayList<>();
    for (Map.Entry<String, List<Question>> e : drawnByGroup.entrySet()) {
      List<Question> drawn = e.getValue();
      Question any = firstOfGroup.get(e.getKey());
      int hop = any.hop();
      String qtype = any.qtype();
      List<Chain> chainOf = new ArrayList<>();
      List<Double> f1Of = new ArrayList<>();
      Chain groupChain = null;
      if (qtype != null) {
        ChainInducer.Induction ind = inducer.induce(drawn.stream().map(ExemplarBuilder::labelled).toList(), hop);
        groupChain = ind.chain();
        for (int i = 0; i < drawn.size(); i++) {
          chainOf.add(ind.chain());
          f1Of.add(ind.f1().get(i));
        }
      } else {
        for (Question q : drawn) {
          ChainInducer.Induction ind = inducer.induce(List.of(labelled(q)), hop);
          chainOf.add(ind.chain());
          f1Of.add(ind.f1().get(0));
        }
      }
      int kept = 0;
      int missing = 0;
      int zero = 0;
      double total = 0;
      Set<Chain> used = new HashSet<>();
      for (int i = 0; i < drawn.size(); i++) {
        Question q = drawn.get(i);
        double f1 = f1Of.get(i);
        total += f1;
        if (f1 > 0) {
          Chain c = chainOf.get(i);
          used.add(c);
          exemplarOf.put(q, new Exemplar(q.question(), c.toPattern(), c.answerTerm(), q.qtype(), q.where()));
          kept++;
        } else {
          if (inducer.knows(q.topic())) {
            zero++;
            Chain c = chainOf.get(i);
            leftOutOf.put(q, c == null ? "no chain of " + hop + " steps reaches an answer" : "chain " + c + " reaches none of the answers");
          } else {
            missing++;
            leftOutOf.put(q, "topic [" + q.topic() + "] is not in the graph");
          }
          heldOut.get(fileOf.get(q)).add(q);
        }
      }
      groups.add(new Group(hop, qtype, sizeByGroup.get(e.getKey()), drawn.size(), kept, groupChain,
          drawn.isEmpty() ? 0 : total / drawn.size(), missing, zero, used.size()));
    }
    // held out: the undrawn and the drawn that did not become exemplars, in line order
    List<Exemplar> exemplars = new ArrayList<>();
    List<LeftOut> leftOut = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      QuestionFile f = files.get(i);
      List<Question> h = heldOut.get(i);
      h.sort(Comparator.comparingLong(Question::line));
      for (Question q : f.questions()) {
        Exemplar x = exemplarOf.get(q);
        if (x != null) {
          exemplars.add(x);
        }
        String why = leftOutOf.get(q);
        if (why != null) {
          leftOut.add(new LeftOut(q, why));
        }
      }
    }
    groups.sort(Comparator.comparingInt(Group::hop).thenComparing(g -> Objects.requireNonNullElse(g.qtype(), "")));
    return new Build(files, exemplars, heldOut, groups, leftOut);
  }

  private static String groupKey(Question q) {
    return String.format("%04d\t%s", q.hop(), q.qtype() == null ? "" : "t" + q.qtype());
  }

  private static LabelledQuestion labelled(Question q) {
    return new LabelledQuestion(q.topic(), q.answers());
  }
}
