package io.kgrag.core.qa.io;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kgrag.core.text.Document;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Questions from JSON Lines: one JSON object a line.
 *
 * <ul>
 *   <li>qid: field {@code qid}, else {@code id}, else {@code _id} (a string or a number); when neither is there, {@code <file
 *       stem>-<line number>} as for MetaQA;
 *   <li>question: field {@code question}, else {@code query}, a string;
 *   <li>answers: field {@code answers}, else {@code answer}: an array of strings or numbers, or a single
 *       string or number (one answer; a JSON string is not split on {@code |}, arrays say "several");
 *       strings of {@code answer_aliases} (MuSiQue) are further accepted answers;
 *   <li>meta: every other field whose value is a string, number or boolean, as text; null, array and
 *       object values are left out.
 * </ul>
 *
 * Blank lines are skipped. Malformed JSON, a duplicate key, anything but an object, a qid or question of
 * the wrong type, an empty question and bytes that are not UTF-8 make an invalid record whose reason names
 * the file, the line and the problem.
 */
public final class JsonlQuestions {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final int MAX_DETAIL = 200;

  private JsonlQuestions() {}

  /**
   * Reads one raw line.
   *
   * @param file the file's path or name (for a generated qid and reasons)
   * @param lineNo the line's 1-based number
   * @param line the line's bytes, without the line break
   * @return the record, or null for a blank line
   */
  public static QuestionRecord parse(String file, long lineNo, byte[] line) {
    try {
      return parse(file, lineNo, InputText.decodeLine(line, 0, line.length, lineNo == 1));
    } catch (InputText.BadText e) {
      return QuestionRecord.invalid("line-" + lineNo, null, InputText.where(file, lineNo) + ": " + e.getMessage());
    }
  }

  /**
   * Reads one decoded line.
   *
   * @return the record, or null for a blank line
   */
  public static QuestionRecord parse(String file, long lineNo, String line) {
    if (line.isBlank()) {
      return null;
    }
    String where = InputText.where(file, lineNo);
    String fallbackQid = "line-" + lineNo;
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String msg = e.getOriginalMessage();
      int nl = msg.indexOf('\n');
      msg = nl >= 0 ? msg.substring(0, nl) : msg;
      int marker = msg.indexOf(" (start marker at [Source:");
      msg = marker >= 0 ? msg.substring(0, marker) : msg;
      if (msg.startsWith("Trailing token")) {
        msg = "more text after the object (one object a line)";
      }
      if (msg.length() > MAX_DETAIL) {
        msg = msg.substring(0, MAX_DETAIL) + "…";
      }
      return QuestionRecord.invalid(
          fallbackQid, null,
          where + ": malformed JSON" + (at != null && at.getColumnNr() > 0 ? " at character " + at.getColumnNr() : "")
              + ": " + msg);
    }
    return fromNode(file, lineNo, where, node);
  }

  /**
   * Reads a whole file that is one JSON array of question objects (MuSiQue, HotpotQA and 2WikiMultihopQA
   * releases), each element read as a JSON Lines object is; an element's "line" is its 1-based position.
   *
   * @throws io.kgrag.core.UserInputException when the file is not valid UTF-8 JSON holding one array
   */
  public static List<NumberedQuestion> parseArray(String file, byte[] content) {
    JsonNode root;
    try {
      root = JSON.readTree(content);
    } catch (java.io.IOException e) {
      String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      int nl = msg.indexOf('\n');
      msg = nl >= 0 ? msg.substring(0, nl) : msg;
      int marker = msg.indexOf(" (start marker at [Source:");
      msg = marker >= 0 ? msg.substring(0, marker) : msg;
      throw new io.kgrag.core.UserInputException(
          file + " is not valid JSON: " + msg + " (a question file is JSON Lines, or one JSON array of objects)");
    }
    if (root == null || !root.isArray()) {
      throw new io.kgrag.core.UserInputException(file + " is not one JSON array of question objects (nor JSON Lines)");
    }
    List<NumberedQuestion> out = new ArrayList<>();
    long i = 0;
    for (JsonNode element : root) {
      i++;
      out.add(new NumberedQuestion(i, fromNode(file, i, file + " element " + i, element)));
    }
    return out;
  }

  private static QuestionRecord fromNode(String file, long lineNo, String where, JsonNode node) {
    String fallbackQid = "line-" + lineNo;
    if (!node.isObject()) {
      return QuestionRecord.invalid(
          fallbackQid, null, where + ": expected a JSON object, found " + node.getNodeType().name().toLowerCase(Locale.ROOT));
    }
    String qidKey = node.has("qid") ? "qid" : node.has("id") ? "id" : node.has("_id") ? "_id" : null;
    String qid = InputText.stem(file) + "-" + lineNo;
    if (qidKey != null) {
      JsonNode q = node.get(qidKey);
      if (!(q.isTextual() || q.isIntegralNumber()) || q.asText().trim().isEmpty()) {
        return QuestionRecord.invalid(
            fallbackQid, null, where + ": " + qidKey + " must be a non-empty string or an integer, found " + show(q));
      }
      qid = q.asText().trim();
    }
    String questionKey = node.has("question") ? "question" : node.has("query") ? "query" : null;
    if (questionKey == null) {
      return QuestionRecord.invalid(qid, null, where + ": no question field (nor query)");
    }
    JsonNode qn = node.get(questionKey);
    if (!qn.isTextual()) {
      return QuestionRecord.invalid(qid, null, where + ": " + questionKey + " must be a string, found " + show(qn));
    }
    String question = qn.asText().trim();
    if (question.isEmpty()) {
      return QuestionRecord.invalid(qid, null, where + ": empty question");
    }
    String answersKey = node.has("answers") ? "answers" : node.has("answer") ? "answer" : null;
    List<String> answers = new ArrayList<>();
    if (answersKey != null) {
      JsonNode a = node.get(answersKey);
      List<JsonNode> items = new ArrayList<>();
      if (a.isArray()) {
        a.forEach(items::add);
      } else if (!a.isNull()) {
        items.add(a);
      }
      for (JsonNode item : items) {
        if (item.isNull()) {
          continue;
        }
        if (!item.isValueNode()) {
          return QuestionRecord.invalid(
              qid, question,
              where + ": " + answersKey + " must be a string or number, or an array of them; found " + show(item));
        }
        String s = item.asText().trim();
        if (!s.isEmpty()) {
          answers.add(s);
        }
      }
    }
    JsonNode aliases = node.get("answer_aliases"); // MuSiQue: more accepted spellings of the answer
    if (aliases != null && aliases.isArray()) {
      for (JsonNode item : aliases) {
        String s = item.isValueNode() && !item.isNull() ? item.asText().trim() : "";
        if (!s.isEmpty() && !answers.contains(s)) {
          answers.add(s);
        }
      }
    }
    Set<String> used = new HashSet<>();
    used.add(qidKey);
    used.add(questionKey);
    used.add(answersKey);
    Map<String, String> meta = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      JsonNode v = f.getValue();
      if (!used.contains(f.getKey()) && v.isValueNode() && !v.isNull()) {
        meta.put(f.getKey(), v.asText());
      }
    }
    supportingPassages(node, meta);
    return QuestionRecord.valid(qid, question, answers, meta);
  }

  /**
   * The supporting passages a record names, as JSON arrays in {@code meta}: MuSiQue's {@code paragraphs} with
   * {@code is_supporting} true give {@link QuestionRecord#SUPPORTING_DOCS} (the document id of title and
   * paragraph_text, as the json-corpus reader computes it) and their titles; HotpotQA's and 2Wiki's {@code
   * supporting_facts} ([title, sentence] pairs) give {@link QuestionRecord#SUPPORTING_TITLES}. Entries of another
   * shape are skipped: these are gold labels for passage recall, not input the question needs.
   */
  private static void supportingPassages(JsonNode node, Map<String, String> meta) {
    Set<String> docs = new LinkedHashSet<>();
    Set<String> titles = new LinkedHashSet<>();
    JsonNode paragraphs = node.get("paragraphs");
    if (paragraphs != null && paragraphs.isArray()) {
      for (JsonNode p : paragraphs) {
        JsonNode title = p.get("title");
        JsonNode text = p.get("paragraph_text");
        JsonNode sup = p.get("is_supporting");
        if (sup != null && sup.asBoolean(false) && title != null && title.isTextual()) {
          titles.add(title.asText());
          if (text != null && text.isTextual()) {
            docs.add(Document.contentId(title.asText(), text.asText()));
          }
        }
      }
    }
    JsonNode facts = node.get("supporting_facts");
    if (facts != null && facts.isArray()) {
      for (JsonNode f : facts) {
        JsonNode title = f.isArray() && f.size() > 0 ? f.get(0) : null;
        if (title != null && title.isTextual()) {
          titles.add(title.asText());
        }
      }
    }
    if (!docs.isEmpty()) {
      meta.put(QuestionRecord.SUPPORTING_DOCS, JSON.valueToTree(docs).toString());
    }
    if (!titles.isEmpty()) {
      meta.put(QuestionRecord.SUPPORTING_TITLES, JSON.valueToTree(titles).toString());
    }
  }

  private static String show(JsonNode n) {
    String s = n.isContainerNode() ? n.getNodeType().name().toLowerCase(Locale.ROOT) : n.toString();
    return s.length() > 60 ? s.substring(0, 60) + "…" : s;
  }
}
