package io.kgrag.jobs.internal.eval;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.UserInputException;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.export.EvidenceGraphWriter;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.RunLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;

/**
 * Writes the evidence of one answered question of a run as {@code <qid>.graphml} and {@code <qid>.dot}
 * (see {@link EvidenceGraphWriter}). Reads the question's answer row, its evidence rows and the question
 * text; writes local files only, no table.
 */
public final class EvidenceExport {
  private final Catalog catalog;

  public EvidenceExport(Catalog catalog) {
    this.catalog = catalog;
  }

  /**
   * What was written.
   *
   * @param graphml the GraphML file
   * @param dot the DOT file
   */
  public record Written(String method, String dataset, String qid, String status, String answer, int nodes, int edges, Path graphml, Path dot) {}

  /**
   * Exports question {@code qid} of run {@code runId}.
   *
   * @param method the method whose answer to export, or null for the run's only method for this question
   * @param dataset the dataset of the question, or null when the qid is unique in the run
   * @param outDir the folder to write to (created when missing)
   * @throws UserInputException when the run, the question or its evidence is not there, or the choice of
   *     method or dataset is ambiguous
   */
  public Written export(String runId, String qid, String method, String dataset, Path outDir) {
    RunLog.checkRunId(runId);
    if (qid == null || qid.isBlank()) {
      throw new UserInputException("--qid must not be empty");
    }
    if (!catalog.exists(KgTable.ANSWERS)) {
      throw new UserInputException(
          "table " + KgTable.ANSWERS.qualifiedName() + " does not exist under " + catalog.root()
              + ": run `kgrag qa` first (or check --warehouse)");
    }
    var runAnswers = catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo(runId));
    Column which = col("qid").equalTo(qid);
    if (method != null) {
      which = which.and(col("method").equalTo(method));
    }
    if (dataset != null) {
      which = which.and(col("dataset").equalTo(dataset));
    }
    List<Row> rows = runAnswers.filter(which).select("method", "dataset", "status", "answer", "ranked", "reason").collectAsList();
    if (rows.isEmpty()) {
      if (runAnswers.isEmpty()) {
        throw new UserInputException(
            "no answers for run '" + runId + "' in " + KgTable.ANSWERS.qualifiedName() + " under " + catalog.root()
                + " (list the runs with: SELECT DISTINCT run_id FROM " + KgTable.ANSWERS.qualifiedName() + ")");
      }
      throw new UserInputException(
          "run '" + runId + "' has no answer for question '" + qid + "'" + (method != null ? " by method " + method : "")
              + (dataset != null ? " in dataset " + dataset : "")
              + " (list its questions with: SELECT method, dataset, qid, status FROM " + KgTable.ANSWERS.qualifiedName()
              + " WHERE run_id = " + Catalog.sqlString(runId) + ")");
    }
    if (rows.size() > 1) {
      Set<String> choices = new LinkedHashSet<>();
      for (Row r : rows) {
        choices.add("--method " + r.getString(0) + " --dataset " + r.getString(1));
      }
      throw new UserInputException(
          "question '" + qid + "' of run '" + runId + "' was answered " + rows.size() + " times; choose one of: "
              + String.join("; ", choices));
    }
    Row a = rows.get(0);
    String m = a.getString(0);
    String ds = a.getString(1);
    String status = a.getString(2);
    String answer = a.getString(3);
    List<Row> ranked = a.isNullAt(4) ? List.of() : a.getList(4);
    List<EvidenceEdge> edges = evidence(runId, m, ds, qid);
    if (edges.isEmpty()) {
      String reason = a.isNullAt(5) ? "" : " (" + a.getString(5) + ")";
      throw new UserInputException(
          "question '" + qid + "' of run '" + runId + "' (method " + m + ", dataset " + ds + ") has status " + status
              + reason + " and no evidence edges: nothing to export");
    }
    Long answerId = null;
    if (!ranked.isEmpty() && !ranked.get(0).isNullAt(1) && (answer == null || answer.equals(ranked.get(0).getString(0)))) {
      answerId = ranked.get(0).getLong(1);
    }
    EvidenceGraphWriter w = EvidenceGraphWriter.of(question(ds, qid), answer, answerId, edges);
    String base = fileName(qid);
    Path graphml = outDir.resolve(base + ".graphml");
    Path dot = outDir.resolve(base + ".dot");
    w.writeGraphml(graphml);
    w.writeDot(dot);
    return new Written(m, ds, qid, status, answer, w.nodeCount(), w.edgeCount(), graphml, dot);
  }

  /**
   * A file name for {@code qid}: every character other than letters, digits, {@code . _ -} becomes
   * {@code _}, and a leading dot does too ({@code 1-hop/17} → {@code 1-hop_17}).
   */
  public static String fileName(String qid) {
    String s = qid.replaceAll("[^A-Za-z0-9._-]", "_");
    return s.startsWith(".") ? "_" + s.substring(1) : s;
  }

  private List<EvidenceEdge> evidence(String runId, String method, String dataset, String qid) {
    List<EvidenceEdge> out = new ArrayList<>();
    if (!catalog.exists(KgTable.EVIDENCE)) {
      return out;
    }
    List<Row> rows =
        catalog.read(KgTable.EVIDENCE)
            .filter(col("run_id").equalTo(runId).and(col("method").equalTo(method)).and(col("dataset").equalTo(dataset)).and(col("qid").equalTo(qid)))
            .select("src", "src_label", "relation", "dst", "dst_label")
            .orderBy("src", "relation", "dst")
            .collectAsList();
    for (Row r : rows) {
      out.add(new EvidenceEdge(r.getLong(0), r.getString(1), r.getString(2), r.getLong(3), r.getString(4)));
    }
    return out;
  }

  private String question(String dataset, String qid) {
    if (!catalog.exists(KgTable.QUESTIONS)) {
      return null;
    }
    List<Row> q =
        catalog.read(KgTable.QUESTIONS).filter(col("dataset").equalTo(dataset).and(col("qid").equalTo(qid)))
            .select("question").limit(1).collectAsList();
    return q.isEmpty() ? null : q.get(0).getString(0);
  }
}
