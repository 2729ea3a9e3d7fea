package io.kgrag.jobs.internal.qa;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.filter;
import static org.apache.spark.sql.functions.first;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.map;
import static org.apache.spark.sql.functions.map_filter;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.sha1;
import static org.apache.spark.sql.functions.split;
import static org.apache.spark.sql.functions.substring;
import static org.apache.spark.sql.functions.transform;
import static org.apache.spark.sql.functions.trim;
import static org.apache.spark.sql.functions.when;

import io.kgrag.core.UserInputException;
import io.kgrag.core.qa.io.CsvQuestions;
import io.kgrag.core.qa.io.JsonlQuestions;
import io.kgrag.core.qa.io.MetaQaQuestions;
import io.kgrag.core.qa.io.NumberedQuestion;
import io.kgrag.core.qa.io.QuestionFormat;
import io.kgrag.core.qa.io.QuestionRecord;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.udfs.io.InputPaths;
import io.kgrag.udfs.io.NumberedLines;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import org.apache.spark.input.PortableDataStream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.AtomicType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Tuple2;
import scala.collection.JavaConverters;

/**
 * Reads a question set into rows of table {@code questions} and writes them there.
 *
 * <p><b>Inputs.</b> A file, a directory or a glob of files ({@link InputPaths}: hidden files skipped,
 * {@code .gz} read directly), each read by the parser its extension names or by the one {@code format}
 * names ({@link QuestionFormat}); or a Delta table, given as its directory (it holds {@code _delta_log}) or
 * by a name in the session catalog such as {@code kgrag.questions}. A table needs columns {@code qid} (or
 * {@code id}) and {@code question} (or {@code query}); {@code answers}/{@code answer} (an array, or a
 * {@code |}-separated string), {@code meta} and {@code invalid_reason} are taken when present; without
 * {@code meta}, the table's other scalar columns become meta. When the table has a {@code dataset}
 * column, only that data set's rows are read.
 *
 * <ul>
 *   <li>CSV files are read whole, one task a file ({@code binaryFiles}), because a quoted field may span
 *       lines; question files are small (well under 100 MB), so a file fits a task's memory. Their header
 *       rows are checked on the driver first, so a file without a question column fails the read with a
 *       {@link UserInputException} instead of a task failure.
 *   <li>MetaQA and JSON Lines are read line by line with exact line numbers ({@link NumberedLines}), bytes
 *       undecoded so that bad encodings become invalid rows. A MetaQA file's {@code <stem>_qtype.txt}
 *       sidecar, when it lies next to it, is joined by line number; both must have the same number of
 *       lines. A sidecar that is itself among the inputs (a directory given) is not read as questions.
 * </ul>
 *
 * <p>Everything that makes the input unusable as a whole (nothing found, unknown format, bad header,
 * sidecar of another length, a {@code .json} file that is one JSON array, a bad data-set name) throws
 * {@link UserInputException} from {@link #read}, before any table is touched. Problems of single records
 * become rows with {@code invalid_reason} set. A qid seen again later in the same data set makes that
 * later row invalid ("duplicate qid (first at …)"), so (dataset, qid) is unique among valid rows.
 *
 * <p>The result is deterministic: rows come in file order (files sorted by path, records by line), and the
 * same input gives the same rows.
 */
public final class QuestionsInput {
  /** What a data-set name may hold: letters, digits, {@code - _ .}, at most 128 characters. */
  public static final Pattern DATASET_NAME = Pattern.compile("[A-Za-z0-9._-]{1,128}");

  private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*){0,2}");
  /** Bytes of a CSV file's start read on the driver to check its header. */
  private static final int HEADER_PREFIX = 1 << 20;

  /** Parsed rows before duplicate marking: where each came from, for order and for reasons. */
  private static final StructType PARSED =
      new StructType()
          .add("src", DataTypes.StringType, false)
          .add("pos", DataTypes.LongType, false)
          .add("where", DataTypes.StringType, false)
          .add("qid", DataTypes.StringType, false)
          .add("question", DataTypes.StringType, true)
          .add("answers", DataTypes.createArrayType(DataTypes.StringType, false), false)
          .add("meta", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType, true), false)
          .add("invalid_reason", DataTypes.StringType, true);

  private QuestionsInput() {}

  /**
   * Reads a question set.
   *
   * @param pathOrTable a file, directory or glob; a Delta table directory; or a table name
   * @param dataset the data-set name written into column {@code dataset} (see {@link #DATASET_NAME})
   * @param format csv, metaqa, jsonl or delta; null to go by extension (or by {@code _delta_log})
   * @return rows with the columns of {@link KgTable#QUESTIONS}, in input order
   * @throws UserInputException when the input as a whole cannot be read (see the class comment)
   */
  public static Dataset<Row> read(SparkSession spark, String pathOrTable, String dataset, String format) {
    String ds = checkDataset(dataset);
    QuestionFormat forced = format == null || format.isBlank() ? null : QuestionFormat.named(format);
    if (pathOrTable == null || pathOrTable.isBlank()) {
      throw new UserInputException("questions input is empty; give a question file, directory, glob or table");
    }
    String spec = pathOrTable.trim();
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    FileStatus[] matches = glob(conf, spec);
    Dataset<Row> parsed;
    if (matches.length == 0) {
      if (isTable(spark, spec)) {
        parsed = fromTable(spark.table(spec), spec, ds);
      } else {
        throw new UserInputException(
            "questions not found: " + spec + " is neither an existing file, directory or glob, nor a table of the"
                + " session; give a .csv, .txt/.tsv (MetaQA) or .jsonl file, a directory or glob of them, a Delta"
                + " table directory, or a table name such as kgrag.questions");
      }
    } else if (matches.length == 1 && isDeltaDir(conf, matches[0])) {
      if (forced != null && forced != QuestionFormat.DELTA) {
        throw new UserInputException(spec + " is a Delta table, not " + forced.option() + " files; use --format delta or leave it out");
      }
      parsed = fromTable(spark.read().format("delta").load(matches[0].getPath().toString()), spec, ds);
    } else if (forced == QuestionFormat.DELTA) {
      throw new UserInputException(
          spec + " is not a Delta table (no _delta_log); give the table's directory or name, or another --format");
    } else {
      parsed = fromFiles(spark, conf, spec, forced);
    }
    return finish(parsed, ds);
  }

  /** The columns a DataFrame of questions ({@link #fromFrame}) must or may have, for messages and docs. */
  public static final String FRAME_COLUMNS =
      "qid string (or id), question string (or query); optional: answers array<string> (or a |-separated string),"
          + " meta map<string,string>, invalid_reason string, dataset string (only the rows of the data set are read)";

  /**
   * Reads a DataFrame of questions the way {@link #read} reads a Delta table of them: the same columns, the same
   * invalid rows (empty qid or question, a duplicate qid) and the same order rules.
   *
   * @param frame a DataFrame with the columns of {@link #FRAME_COLUMNS}
   * @param dataset the data-set name written into column {@code dataset}
   * @return rows with the columns of {@link KgTable#QUESTIONS}
   * @throws UserInputException for a frame without a qid or question column (naming it and the expected columns)
   */
  public static Dataset<Row> fromFrame(Dataset<Row> frame, String dataset) {
    String ds = checkDataset(dataset);
    checkFrame(frame);
    return finish(fromTable(frame, "questions DataFrame", ds), ds);
  }

  /**
   * Checks that {@code frame} has the columns {@link #fromFrame} needs, before anything is read or written.
   *
   * @throws UserInputException for a null frame or one without a qid or question column (naming it and the expected columns)
   */
  public static void checkFrame(Dataset<Row> frame) {
    if (frame == null) {
      throw new UserInputException("questions DataFrame is null; give one with columns " + FRAME_COLUMNS);
    }
    Set<String> have = new LinkedHashSet<>();
    for (StructField f : frame.schema().fields()) {
      have.add(f.name().toLowerCase(Locale.ROOT));
    }
    for (String[] c : new String[][] {{"qid", "id"}, {"question", "query"}}) {
      if (!have.contains(c[0]) && !have.contains(c[1])) {
        throw new UserInputException(
            "questions DataFrame has no column " + c[0] + " (nor " + c[1] + "); expected columns: " + FRAME_COLUMNS + "; columns found: "
                + (have.isEmpty() ? "none" : String.join(", ", frame.columns())));
      }
    }
  }

  /**
   * Replaces the rows of the data set(s) in {@code questions} by {@code questions} in one Delta commit
   * ({@code replaceWhere dataset IN (…)}); other data sets are left as they are.
   *
   * @param questions rows from {@link #read}
   * @return the table version written
   * @throws UserInputException when there is no row to write or a data-set name is not allowed
   */
  public static long write(Catalog catalog, Dataset<Row> questions) {
    List<String> names =
        questions.select("dataset").distinct().collectAsList().stream()
            .map(r -> r.isNullAt(0) ? null : r.getString(0))
            .sorted()
            .collect(Collectors.toList());
    if (names.isEmpty()) {
      throw new UserInputException("no question rows to write: the input holds no questions");
    }
    String predicate =
        "dataset IN (" + names.stream().map(n -> "'" + checkDataset(n) + "'").collect(Collectors.joining(", ")) + ")";
    return catalog.replaceWhere(KgTable.QUESTIONS, questions, predicate);
  }

  /**
   * Checks a data-set name: letters, digits, {@code - _ .}, 1 to 128 characters (it goes into a SQL
   * predicate and into file and report names).
   *
   * @return the name
   * @throws UserInputException otherwise
   */
  public static String checkDataset(String name) {
    if (name == null || !DATASET_NAME.matcher(name).matches()) {
      throw new UserInputException(
          "bad data-set name '" + name + "': use 1 to 128 letters, digits, '-', '_' or '.' (e.g. erqa-dev, metaqa_2hop)");
    }
    return name;
  }

  // ---- locating the input

  private static FileStatus[] glob(Configuration conf, String spec) {
    try {
      Path p = new Path(spec);
      FileStatus[] m = p.getFileSystem(conf).globStatus(p);
      return m == null ? new FileStatus[0] : m;
    } catch (IOException | IllegalArgumentException e) {
      throw new UserInputException("cannot read questions " + spec + ": " + e.getMessage(), e);
    }
  }

  private static boolean isDeltaDir(Configuration conf, FileStatus s) {
    if (!s.isDirectory()) {
      return false;
    }
    try {
      return s.getPath().getFileSystem(conf).exists(new Path(s.getPath(), "_delta_log"));
    } catch (IOException e) {
      throw new UserInputException("cannot read questions " + s.getPath() + ": " + e.getMessage(), e);
    }
  }

  private static boolean isTable(SparkSession spark, String name) {
    if (!TABLE_NAME.matcher(name).matches()) {
      return false;
    }
    try {
      return spark.catalog().tableExists(name);
    } catch (RuntimeException e) { // an unknown database, a name the parser refuses
      return false;
    }
  }

  // ---- files

  private static Dataset<Row> fromFiles(SparkSession spark, Configuration conf, String spec, QuestionFormat forced) {
    List<String> files = InputPaths.resolve(conf, spec, "questions");
    Map<QuestionFormat, List<String>> byFormat = new EnumMap<>(QuestionFormat.class);
    for (String f : files) {
      byFormat.computeIfAbsent(forced != null ? forced : QuestionFormat.ofFile(f), k -> new ArrayList<>()).add(f);
    }
    // sidecars of MetaQA files: never questions themselves
    Map<String, String> sidecars = new HashMap<>();
    List<String> metaqa = byFormat.getOrDefault(QuestionFormat.METAQA, List.of());
    for (String f : metaqa) {
      Path side = new Path(new Path(f).getParent(), MetaQaQuestions.sidecarName(f));
      if (exists(conf, side)) {
        sidecars.put(f, side.toString());
      }
    }
    Set<String> sideFiles = new LinkedHashSet<>(sidecars.values());
    for (List<String> l : byFormat.values()) {
      l.removeIf(sideFiles::contains);
    }
    sidecars.keySet().removeIf(sideFiles::contains);

    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    List<JavaRDD<Row>> parts = new ArrayList<>();
    for (Map.Entry<QuestionFormat, List<String>> e : byFormat.entrySet()) {
      if (e.getValue().isEmpty()) {
        continue;
      }
      switch (e.getKey()) {
        case CSV:
          parts.add(csv(jsc, conf, e.getValue()));
          break;
        case METAQA:
          parts.add(metaqa(jsc, e.getValue(), sidecars));
          break;
        default:
          parts.add(jsonl(jsc, conf, e.getValue()));
          break;
      }
    }
    if (parts.isEmpty()) {
      throw new UserInputException("questions " + spec + " holds no question files (only MetaQA _qtype.txt sidecars)");
    }
    JavaRDD<Row> all = parts.get(0);
    for (int i = 1; i < parts.size(); i++) {
      all = all.union(parts.get(i));
    }
    return spark.createDataFrame(all, PARSED);
  }

  private static JavaRDD<Row> csv(JavaSparkContext jsc, Configuration conf, List<String> files) {
    for (String f : files) {
      CsvQuestions.header(f, prefix(conf, f, HEADER_PREFIX));
    }
    return jsc.binaryFiles(String.join(",", files))
        .flatMap(
            (Tuple2<String, PortableDataStream> t) -> {
              String src = t._1();
              List<Row> rows = new ArrayList<>();
              for (NumberedQuestion q : CsvQuestions.parse(src, whole(src, t._2()))) {
                rows.add(row(src, q.line(), q.record()));
              }
              return rows.iterator();
            });
  }

  private static JavaRDD<Row> metaqa(JavaSparkContext jsc, List<String> files, Map<String, String> sidecarOf) {
    JavaRDD<NumberedLines.Line> lines = NumberedLines.read(jsc, files);
    Map<String, String> sidecars = new HashMap<>();
    for (String f : files) {
      if (sidecarOf.containsKey(f)) {
        sidecars.put(f, sidecarOf.get(f));
      }
    }
    if (sidecars.isEmpty()) {
      return lines
          .map(l -> row(l.source, l.lineNo, MetaQaQuestions.parse(l.source, l.lineNo, l.bytes, null)))
          .filter(r -> r != null);
    }
    // sidecar line k is the type of question line k: both files must have the same number of lines
    Map<String, String> mainOf = new HashMap<>();
    sidecars.forEach((m, s) -> mainOf.put(s, m));
    JavaRDD<NumberedLines.Line> types = NumberedLines.read(jsc, new ArrayList<>(sidecars.values()));
    Map<String, Long> questionLines = lines.map(l -> l.source).countByValue();
    Map<String, Long> typeLines = types.map(l -> l.source).countByValue();
    for (Map.Entry<String, String> e : sidecars.entrySet()) {
      long q = questionLines.getOrDefault(e.getKey(), 0L);
      long t = typeLines.getOrDefault(e.getValue(), 0L);
      if (q != t) {
        throw new UserInputException(
            "MetaQA question file " + e.getKey() + " has " + q + " lines but its question-type sidecar " + e.getValue()
                + " has " + t + "; the sidecar needs one line per question line, in the same order (fix or remove it)");
      }
    }
    JavaPairRDD<String, NumberedLines.Line> byLine = lines.mapToPair(l -> new Tuple2<>(l.source + "\n" + l.lineNo, l));
    JavaPairRDD<String, byte[]> typeByLine =
        types.mapToPair(l -> new Tuple2<>(mainOf.get(l.source) + "\n" + l.lineNo, l.bytes));
    return byLine
        .leftOuterJoin(typeByLine)
        .map(
            (Tuple2<String, Tuple2<NumberedLines.Line, Optional<byte[]>>> t) -> {
              NumberedLines.Line l = t._2()._1();
              Optional<byte[]> type = t._2()._2();
              return row(l.source, l.lineNo, MetaQaQuestions.parse(l.source, l.lineNo, l.bytes, type.orElse(null)));
            })
        .filter(r -> r != null);
  }

  private static JavaRDD<Row> jsonl(JavaSparkContext jsc, Configuration conf, List<String> files) {
    List<String> lines = new ArrayList<>();
    List<String> arrays = new ArrayList<>(); // MuSiQue / HotpotQA releases: one JSON array a file
    for (String f : files) {
      (startsWithArray(prefix(conf, f, 4096)) ? arrays : lines).add(f);
    }
    List<JavaRDD<Row>> parts = new ArrayList<>();
    if (!lines.isEmpty()) {
      parts.add(
          NumberedLines.read(jsc, lines)
              .map(l -> row(l.source, l.lineNo, JsonlQuestions.parse(l.source, l.lineNo, l.bytes)))
              .filter(r -> r != null));
    }
    if (!arrays.isEmpty()) {
      parts.add(
          jsc.binaryFiles(String.join(",", arrays))
              .flatMap(
                  (Tuple2<String, PortableDataStream> t) -> {
                    String src = t._1();
                    List<Row> rows = new ArrayList<>();
                    for (NumberedQuestion q : JsonlQuestions.parseArray(src, whole(src, t._2()))) {
                      rows.add(row(src, q.line(), q.record()));
                    }
                    return rows.iterator();
                  }));
    }
    return parts.size() == 1 ? parts.get(0) : parts.get(0).union(parts.get(1));
  }

  private static boolean startsWithArray(byte[] b) {
    int i = b.length >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF ? 3 : 0;
    while (i < b.length && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
      i++;
    }
    return i < b.length && b[i] == '[';
  }

  /** A parsed record as a {@link #PARSED} row; null for a skipped (blank) line. */
  private static Row row(String src, long line, QuestionRecord r) {
    if (r == null) {
      return null;
    }
    // Scala collections: rows from an RDD go through the encoder, which takes no java.util collections
    return RowFactory.create(
        src, line, new Path(src).getName() + " line " + line, r.qid(), r.question(),
        JavaConverters.asScalaBuffer(new ArrayList<>(r.answers())).toList(),
        JavaConverters.mapAsScalaMap(new HashMap<>(r.meta())),
        r.invalidReason());
  }

  private static boolean exists(Configuration conf, Path p) {
    try {
      return p.getFileSystem(conf).exists(p);
    } catch (IOException e) {
      throw new UserInputException("cannot read " + p + ": " + e.getMessage(), e);
    }
  }

  /** Up to {@code limit} bytes from the start of a file (decompressed when it ends in .gz). */
  private static byte[] prefix(Configuration conf, String file, int limit) {
    Path p = new Path(file);
    try (InputStream in = open(p.getFileSystem(conf).open(p), file)) {
      return in.readNBytes(limit);
    } catch (IOException e) {
      throw new UserInputException("cannot read questions file " + file + ": " + e.getMessage(), e);
    }
  }

  private static byte[] whole(String file, PortableDataStream s) throws IOException {
    if (!file.toLowerCase(Locale.ROOT).endsWith(".gz")) {
      return s.toArray();
    }
    try (InputStream in = open(s.open(), file)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  private static InputStream open(InputStream raw, String file) throws IOException {
    return file.toLowerCase(Locale.ROOT).endsWith(".gz") ? new GZIPInputStream(raw) : raw;
  }

  // ---- tables

  private static Dataset<Row> fromTable(Dataset<Row> df, String src, String ds) {
    Map<String, StructField> cols = new HashMap<>();
    for (StructField f : df.schema().fields()) {
      cols.put(f.name().toLowerCase(Locale.ROOT), f);
    }
    if (cols.containsKey("dataset")) {
      Dataset<Row> mine = df.filter(col(cols.get("dataset").name()).equalTo(ds));
      if (mine.isEmpty()) {
        List<String> have =
            df.select(cols.get("dataset").name()).distinct().limit(20).collectAsList().stream()
                .map(r -> String.valueOf(r.get(0))).sorted().collect(Collectors.toList());
        throw new UserInputException(
            "table " + src + " has no rows of data set " + ds + " (it has: " + String.join(", ", have) + ")");
      }
      df = mine;
    }
    StructField qid = pick(cols, src, "qid", "id", true);
    StructField question = pick(cols, src, "question", "query", true);
    StructField answers = pick(cols, src, "answers", "answer", false);
    StructField meta = cols.get("meta");
    StructField reason = cols.get("invalid_reason");

    Column answersCol;
    if (answers == null) {
      answersCol = array().cast("array<string>");
    } else if (answers.dataType() instanceof ArrayType) {
      answersCol = col(answers.name()).cast("array<string>");
    } else if (answers.dataType().equals(DataTypes.StringType)) {
      answersCol = split(col(answers.name()), "\\|");
    } else {
      throw new UserInputException(
          "table " + src + ": column " + answers.name() + " is " + answers.dataType().simpleString()
              + "; answers must be an array of strings or a |-separated string");
    }
    // questions.answers is array<string NOT NULL>: a lambda that cannot return null gives that element type
    // (array_compact does not: it is a filter underneath), and the empty default must have it too
    answersCol =
        coalesce(
            filter(transform(answersCol, a -> coalesce(trim(a), lit(""))), a -> a.notEqual("")),
            transform(array().cast("array<string>"), a -> lit("")));

    Column metaCol;
    if (meta != null && meta.dataType() instanceof MapType) {
      metaCol = col(meta.name()).cast("map<string,string>");
    } else {
      List<Column> kv = new ArrayList<>();
      Set<String> used = new LinkedHashSet<>();
      for (StructField f : new StructField[] {qid, question, answers, meta, reason, cols.get("dataset")}) {
        if (f != null) {
          used.add(f.name());
        }
      }
      for (StructField f : df.schema().fields()) {
        if (!used.contains(f.name()) && isScalar(f.dataType())) {
          kv.add(lit(f.name()));
          kv.add(col(f.name()).cast("string"));
        }
      }
      metaCol = kv.isEmpty() ? map().cast("map<string,string>") : map(kv.toArray(new Column[0]));
    }
    metaCol = coalesce(map_filter(metaCol, (k, v) -> v.isNotNull()), map().cast("map<string,string>"));

    Column q = trim(col(qid.name()).cast("string"));
    Column text = trim(col(question.name()).cast("string"));
    Column emptyQid = q.isNull().or(q.equalTo(""));
    Column emptyQuestion = text.isNull().or(text.equalTo(""));
    Column given = reason == null ? lit(null).cast("string") : col(reason.name()).cast("string");
    return df.select(
        lit(src).as("src"),
        lit(0L).as("pos"),
        lit(src).as("where"),
        when(emptyQid, concat(lit("no-qid-"), substring(sha1(coalesce(text, lit(""))), 1, 12))).otherwise(q).as("qid"),
        when(emptyQuestion, lit(null).cast("string")).otherwise(text).as("question"),
        answersCol.as("answers"),
        metaCol.as("meta"),
        when(given.isNotNull(), given)
            .when(emptyQid, lit(src + ": empty qid"))
            .when(emptyQuestion, concat(lit(src + ": qid "), q, lit(": empty question")))
            .as("invalid_reason"));
  }

  private static boolean isScalar(DataType t) {
    return t instanceof AtomicType;
  }

  private static StructField pick(Map<String, StructField> cols, String src, String name, String alias, boolean required) {
    StructField f = cols.containsKey(name) ? cols.get(name) : cols.get(alias);
    if (f == null && required) {
      throw new UserInputException(
          "table " + src + " has no " + name + " column (nor " + alias + "); columns found: "
              + cols.values().stream().map(StructField::name).sorted().collect(Collectors.joining(", ")));
    }
    return f;
  }

  // ---- duplicates and order

  private static Dataset<Row> finish(Dataset<Row> parsed, String ds) {
    WindowSpec byQid = Window.partitionBy("qid").orderBy("src", "pos", "question", "answers");
    return parsed
        .withColumn("_rn", row_number().over(byQid))
        .withColumn("_first", first(col("where")).over(byQid))
        .withColumn(
            "invalid_reason",
            when(col("_rn").gt(1).and(col("invalid_reason").isNull()),
                    concat(lit("duplicate qid (first at "), col("_first"), lit(")")))
                .otherwise(col("invalid_reason")))
        .orderBy("src", "pos", "qid", "question")
        .select(
            lit(ds).as("dataset"),
            col("qid"),
            col("question"),
            col("answers"),
            col("meta"),
            col("invalid_reason"));
  }
}
