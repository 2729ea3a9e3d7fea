package io.kgrag.jobs.internal.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kgrag.core.UserInputException;
import io.kgrag.core.qa.io.QuestionRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Row;

/**
 * A question's supporting passages, from its {@code questions.meta}: the documents' ids where the question file gave
 * the passages' text (MuSiQue), else their titles (HotpotQA, 2Wiki); retrieved chunks are compared by the same key.
 */
record GoldPassages(Set<String> ids, boolean byTitle) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The gold of one question from its meta values (JSON arrays of strings, null when absent).
   *
   * @throws UserInputException naming the question when a value is not a JSON array of strings
   */
  static GoldPassages of(String docs, String titles, String dataset, String qid) {
    if (docs != null) {
      return new GoldPassages(parse(docs, QuestionRecord.SUPPORTING_DOCS, dataset, qid), false);
    }
    return new GoldPassages(titles == null ? Set.of() : parse(titles, QuestionRecord.SUPPORTING_TITLES, dataset, qid), true);
  }

  /** The retrieved chunks' keys (document id or title) in rank order, from (rank, doc_id, title) rows. */
  List<String> keys(List<Row> passages) {
    List<Row> sorted = new ArrayList<>(passages);
    sorted.sort(Comparator.comparingInt(r -> r.getInt(0)));
    List<String> out = new ArrayList<>(sorted.size());
    for (Row r : sorted) {
      out.add(byTitle ? (r.isNullAt(2) ? null : r.getString(2)) : r.getString(1));
    }
    return out;
  }

  private static Set<String> parse(String json, String key, String dataset, String qid) {
    Set<String> out = new LinkedHashSet<>();
    JsonNode n;
    try {
      n = JSON.readTree(json);
    } catch (java.io.IOException e) {
      n = null;
    }
    if (n == null || !n.isArray()) {
      throw bad(key, dataset, qid);
    }
    for (JsonNode x : n) {
      if (!x.isTextual()) {
        throw bad(key, dataset, qid);
      }
      out.add(x.asText());
    }
    return out;
  }

  private static UserInputException bad(String key, String dataset, String qid) {
    return new UserInputException(
        "question " + qid + " of data set " + dataset + ": meta['" + key + "'] is not a JSON array of strings; it holds the gold"
            + " passages for passage recall (rename the question file's field " + key + ", or load the questions again)");
  }
}
