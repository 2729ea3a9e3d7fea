package io.kgrag.jobs.internal.qa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class QuestionsInputTest {
  /** The header and first five rows of the real ERQA dev.csv (CRLF), with two broken rows mixed in. */
  private static final String ERQA =
      "qid,query,answer\r\n"
          + "001-0066,\"Which Olympic sport is associated with both Barbados and the Republic of Macedonia, and was"
          + " featured in both the 2004 and 2008 Summer Olympics?\",Judo\r\n"
          + "001-0056,\"Which award is associated with nominees from \"\"Lemony Snicket's A Series of Unfortunate"
          + " Events\"\" and \"\"Skyfall,\"\" as well as having been won by \"\"Life of Pi\"\"?\",Satellite Award for"
          + " Best Cinematography\r\n"
          + "bad-1,Which film stars \"Tom Hanks\", then?,Big\r\n"
          + "001-0064,\"Which sport has athletes who competed in the 2000, 2012, and 1984 Summer Olympics and is"
          + " closely associated with Portugal?\",Fencing\r\n"
          + "bad-2,\"Which film was never closed?,Alien\r\n"
          + "001-0043,\"Which event involved both Swaziland and the Republic of Macedonia as participating countries,"
          + " and included artistic gymnastics as a sport and awarded a bronze medal?\",2008 Summer Olympics\r\n"
          + "001-0025,\"Which film was produced by United Artists, features both German and Spanish languages, and"
          + " had an estimated budget in United States Dollars?\",Quantum of Solace\r\n";

  private static SparkSession spark() {
    return SparkTestSession.get();
  }

  private static Map<String, Row> byQid(Dataset<Row> df) {
    return df.collectAsList().stream().collect(Collectors.toMap(r -> r.getString(r.fieldIndex("qid")), r -> r));
  }

  private static String reason(Row r) {
    return r.getString(r.fieldIndex("invalid_reason"));
  }

  private static Map<String, String> meta(Row r) {
    return r.getJavaMap(r.fieldIndex("meta"));
  }

  @Test
  void erqaCsvWithTwoBrokenRowsAmongGoodOnes() {
    Path dir = SparkTestSession.newDir("erqa");
    Path csv = TestFiles.bytes(dir, "dev.csv", ERQA.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    Dataset<Row> df = QuestionsInput.read(spark(), csv.toString(), "erqa-dev", null);
    assertEquals(KgTable.QUESTIONS.schema().fieldNames().length, df.columns().length);
    List<Row> rows = df.collectAsList();
    assertEquals(7, rows.size());
    assertEquals(
        List.of("001-0066", "001-0056", "bad-1", "001-0064", "bad-2", "001-0043", "001-0025"),
        rows.stream().map(r -> r.getString(1)).collect(Collectors.toList()),
        "file order");
    assertTrue(rows.stream().allMatch(r -> "erqa-dev".equals(r.getString(0))));
    Map<String, Row> q = byQid(df);
    assertTrue(reason(q.get("bad-1")).startsWith("dev.csv line 4: quote inside unquoted field 2 (query)"), reason(q.get("bad-1")));
    assertEquals(
        "dev.csv line 6: quoted field 2 (query) is not closed on this line; read as a field spanning lines, the record"
            + " fails at line 7: text after the closing quote of field 2 (query) at character 11 (double each quote"
            + " inside a quoted field)",
        reason(q.get("bad-2")));
    assertEquals(5, rows.stream().filter(r -> r.isNullAt(5)).count());
    Row r = q.get("001-0056");
    assertTrue(r.getString(2).contains("\"Skyfall,\" as well as"));
    assertEquals(List.of("Satellite Award for Best Cinematography"), r.getList(3));
    assertEquals(Map.of(), meta(r));
  }

  @Test
  void metaqaDirectoryWithQtypeSidecar() {
    Path dir = SparkTestSession.newDir("metaqa");
    TestFiles.bytes(
        dir, "qa_dev_2hop.txt",
        TestFiles.concat(
            "what are the languages spoken in the films directed by [Joel Zwick]\tGreek\n",
            "which movies share the screenwriter with [Wings of Desire]\tParis, Texas|Faraway, So Close!\n",
            "who directed [Caf", new byte[] {(byte) 0xC3, (byte) 0x28}, "]\tX\n",
            "no tab here\n"));
    TestFiles.lines(dir, "qa_dev_2hop_qtype.txt",
        List.of("director_to_movie_to_language", "movie_to_writer_to_movie", "movie_to_director", "movie_to_actor"));
    Dataset<Row> df = QuestionsInput.read(spark(), dir.toString(), "metaqa-2hop", null);
    Map<String, Row> q = byQid(df);
    assertEquals(List.of("qa_dev_2hop-1", "qa_dev_2hop-2", "qa_dev_2hop-3", "qa_dev_2hop-4"),
        df.collectAsList().stream().map(r -> r.getString(1)).collect(Collectors.toList()), "the sidecar is not read as questions");
    Row second = q.get("qa_dev_2hop-2");
    assertEquals("which movies share the screenwriter with Wings of Desire", second.getString(2));
    assertEquals(List.of("Paris, Texas", "Faraway, So Close!"), second.getList(3));
    assertEquals(Map.of("hop", "2", "qtype", "movie_to_writer_to_movie", "topic", "Wings of Desire"), meta(second));
    assertEquals("qa_dev_2hop.txt line 3: not valid UTF-8 at byte 17 (re-encode the file as UTF-8)", reason(q.get("qa_dev_2hop-3")));
    assertEquals("qa_dev_2hop.txt line 4: expected question<TAB>answers, found no tab", reason(q.get("qa_dev_2hop-4")));

    TestFiles.lines(dir, "qa_dev_2hop_qtype.txt", List.of("director_to_movie_to_language"));
    String m = assertThrows(UserInputException.class,
        () -> QuestionsInput.read(spark(), dir.resolve("qa_dev_2hop.txt").toString(), "metaqa-2hop", null)).getMessage();
    assertTrue(m.contains("qa_dev_2hop.txt has 4 lines but its question-type sidecar") && m.contains("qa_dev_2hop_qtype.txt has 1"), m);
  }

  @Test
  void jsonlWithDuplicateQidAndMalformedLine() {
    Path dir = SparkTestSession.newDir("jsonl");
    Path f = TestFiles.lines(dir, "q.jsonl", List.of(
        "{\"qid\":\"a\",\"question\":\"Who directed Alien?\",\"answers\":[\"Ridley Scott\"],\"level\":\"easy\"}",
        "",
        "{\"id\":\"b\",\"query\":\"Where?\",\"answer\":\"Paris, Texas\"}",
        "{\"qid\":\"a\",\"question\":\"Again?\"}",
        "{\"qid\":\"c\",\"question\":"));
    Dataset<Row> df = QuestionsInput.read(spark(), f.toString(), "mini", null);
    List<Row> rows = df.collectAsList();
    assertEquals(4, rows.size());
    assertEquals(Map.of("level", "easy"), meta(rows.get(0)));
    assertNull(reason(rows.get(0)));
    assertEquals(List.of("Paris, Texas"), rows.get(1).getList(3));
    assertEquals("a", rows.get(2).getString(1));
    assertEquals("duplicate qid (first at q.jsonl line 1)", reason(rows.get(2)));
    assertEquals("line-5", rows.get(3).getString(1));
    assertTrue(reason(rows.get(3)).startsWith("q.jsonl line 5: malformed JSON"), reason(rows.get(3)));

    // a file that is one JSON array (MuSiQue, HotpotQA) is read element by element
    TestFiles.lines(dir, "arr.json", List.of("[{\"_id\":\"a\",\"question\":\"Q\",\"answer\":\"x\",\"answer_aliases\":[\"y\"]},", "{\"question\":\"\"}]"));
    List<Row> arr = QuestionsInput.read(spark(), dir.resolve("arr.json").toString(), "mini", null).orderBy("qid").collectAsList();
    assertEquals(2, arr.size());
    assertEquals("a", arr.get(0).getString(1));
    assertEquals(List.of("x", "y"), arr.get(0).getList(3));
    assertTrue(reason(arr.get(1)).contains("arr.json element 2: empty question"), reason(arr.get(1)));
    // one that is not valid JSON is refused whole, naming the file
    TestFiles.lines(dir, "bad.json", List.of("[{\"qid\":\"a\",\"question\":\"Q\"}"));
    // (read on the executors: the job's entry point finds the UserInputException among the causes and exits 2)
    Throwable t = assertThrows(Exception.class, () -> QuestionsInput.read(spark(), dir.resolve("bad.json").toString(), "mini", null).collectAsList());
    while (t != null && !(t instanceof UserInputException)) {
      t = t.getCause();
    }
    assertTrue(t != null && t.getMessage().contains("bad.json is not valid JSON"), String.valueOf(t));
  }

  @Test
  void deltaTableByPathAndTheQuestionsTableByName() {
    Path dir = SparkTestSession.newDir("delta");
    StructType schema =
        new StructType()
            .add("id", DataTypes.StringType)
            .add("question", DataTypes.StringType)
            .add("answers", DataTypes.createArrayType(DataTypes.StringType))
            .add("split", DataTypes.StringType)
            .add("level", DataTypes.IntegerType);
    List<Row> in = List.of(
        RowFactory.create("t1", "Who?", List.of("A", " B "), "dev", 1),
        RowFactory.create("t2", "  ", List.of("C"), "dev", null),
        RowFactory.create("t1", "Who again?", null, null, 2));
    String table = dir.resolve("src").toString();
    spark().createDataFrame(in, schema).write().format("delta").save(table);
    Dataset<Row> df = QuestionsInput.read(spark(), table, "from-delta", null);
    List<Row> rows = df.collectAsList();
    assertEquals(3, rows.size());
    // a table has no line order: rows of one qid are ordered by question ("Who again?" < "Who?")
    Row again = rows.get(0);
    assertEquals("t1", again.getString(1));
    assertEquals("Who again?", again.getString(2));
    assertEquals(List.of(), again.getList(3));
    assertEquals(Map.of("level", "2"), meta(again));
    assertNull(reason(again));
    Row t1 = rows.get(1);
    assertEquals(List.of("A", "B"), t1.getList(3));
    assertEquals(Map.of("split", "dev", "level", "1"), meta(t1));
    assertEquals("duplicate qid (first at " + table + ")", reason(t1));
    assertEquals(table + ": qid t2: empty question", reason(rows.get(2)));

    // written to kgrag.questions, then read back by name; only that data set's rows are replaced
    Catalog catalog = new Catalog(spark(), dir.resolve("wh").toString());
    QuestionsInput.write(catalog, df);
    Path csv = TestFiles.bytes(dir, "dev.csv", ERQA.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    QuestionsInput.write(catalog, QuestionsInput.read(spark(), csv.toString(), "erqa", "csv"));
    QuestionsInput.write(catalog, QuestionsInput.read(spark(), csv.toString(), "erqa", "csv"));
    assertEquals(3 + 7, catalog.read(KgTable.QUESTIONS).count());
    // the test JVM shares one session: a class that ran before may have registered kgrag.* at its own warehouse
    spark().sql("DROP TABLE IF EXISTS " + KgTable.QUESTIONS.qualifiedName());
    catalog.register();
    Dataset<Row> back = QuestionsInput.read(spark(), "kgrag.questions", "from-delta", null);
    assertEquals(df.collectAsList(), back.collectAsList());
    assertEquals(7, QuestionsInput.read(spark(), "kgrag.questions", "erqa", "delta").count());
    String m = assertThrows(UserInputException.class,
        () -> QuestionsInput.read(spark(), "kgrag.questions", "nope", null)).getMessage();
    assertTrue(m.contains("has no rows of data set nope (it has: erqa, from-delta)"), m);
  }

  @Test
  void wholeInputProblemsAreUserErrors() {
    Path dir = SparkTestSession.newDir("errors");
    String m = assertThrows(UserInputException.class,
        () -> QuestionsInput.read(spark(), dir.resolve("missing.csv").toString(), "x", null)).getMessage();
    assertTrue(m.startsWith("questions not found: " + dir.resolve("missing.csv")), m);
    Path csv = TestFiles.lines(dir, "q.csv", List.of("qid,text", "1,Who?"));
    assertTrue(assertThrows(UserInputException.class, () -> QuestionsInput.read(spark(), csv.toString(), "x", null))
        .getMessage().contains("no question column"));
    assertThrows(UserInputException.class, () -> QuestionsInput.read(spark(), csv.toString(), "bad name'", null));
    assertThrows(UserInputException.class, () -> QuestionsInput.read(spark(), csv.toString(), "x", "xml"));
    Path other = TestFiles.lines(dir, "q.parquet", List.of("x"));
    assertTrue(assertThrows(UserInputException.class, () -> QuestionsInput.read(spark(), other.toString(), "x", null))
        .getMessage().contains("--format"));
    assertThrows(UserInputException.class, () -> QuestionsInput.read(spark(), csv.toString(), "x", "delta"));
  }
}
