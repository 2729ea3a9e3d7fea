package io.kgrag.jobs.cli;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.Embedder;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.InMemoryChatCache;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.llm.OpenAiClient;
import io.kgrag.core.qafd.SeedSelection;
import io.kgrag.core.qafd.sql.JoinPathFinder;
import io.kgrag.core.qafd.sql.KeywordSeeds;
import io.kgrag.core.qafd.sql.SchemaGraph;
import io.kgrag.core.qafd.sql.SeedPlanner;
import io.kgrag.core.qafd.sql.SqlWriter;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.sql.CatalogSchema;
import io.kgrag.jobs.internal.sql.CheckedSql;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.functions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kgrag ask-sql "<question>"}: QAFD-RAG's text-to-SQL variant (PAPER Appendix A2.2) over kgrag's own
 * catalog. The tables of the warehouse become a {@link SchemaGraph}; seeds come from the question's
 * keywords (or the paper's Prompt 5 planner with {@code --seeds llm}); one flow diffusion per source/target
 * pair ranks join paths by reward (mean diffusion score on the path); the best paths and the schema go to
 * the LLM, which writes one Spark SQL query.
 *
 * <p>The SQL is checked before anything runs: one statement only; parsed by the session's parser and
 * refused unless it is a read-only query ({@link ReadOnlySql}) reading only {@code kgrag.<table>} names of
 * this warehouse (no file path, no other database); then analysed against the tables. A parse
 * or analysis error gets ONE repair request (the error and the failed SQL, in the same conversation); a
 * second failure is reported with both errors. A refused statement is never repaired and never run.
 *
 * <p>Without an LLM endpoint ({@value KgragConf#LLM_URL} and {@value KgragConf#LLM_MODEL}) it prints the
 * join paths and says what to set, exit 0. Replies are cached in memory only for the command: it writes
 * nothing to the warehouse.
 */
@Command(
    name = "ask-sql",
    mixinStandardHelpOptions = true,
    description = {
      "Answers a question about kgrag's own tables with Spark SQL written by an LLM (QAFD-RAG text-to-SQL): a schema",
      "graph of the warehouse's tables, join paths ranked by query-aware flow diffusion, one SELECT from the LLM of",
      "spark.kgrag.llm.* checked read-only, analysed (repaired once on error) and run.",
      "Without spark.kgrag.llm.url / .model it prints the join paths and what to configure.",
      "Exit codes: 0 ran (or paths only, no LLM); 2 bad options, or the SQL was refused (not a read-only query);",
      "3 the SQL was still invalid after one repair; 1 the endpoint or anything else failed."
    })
public final class AskSqlCommand implements Callable<Integer> {
  /** Exit code when the repaired SQL is still invalid. */
  public static final int INVALID_SQL = 3;

  /** Exit code when the SQL is refused. */
  public static final int REFUSED = 2;

  /** Embedded seeds: at most this many columns (Algorithm 1's N), each at least this cosine to a keyword. */
  static final int SEEDS = 8;

  static final double MIN_SEED_SIMILARITY = 0.3;

  /** Embedded seeds: the best this many are paired into source/target candidates. */
  static final int SEED_POOL = 4;

  @Mixin JobOptions job = new JobOptions();

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<question>", description = "The question, in words.")
  String question;

  @Option(
      names = "--seeds",
      defaultValue = "embedded",
      paramLabel = "<kind>",
      description = "Seed nodes: embedded (question keywords matched to columns) or llm (the paper's Prompt 5 planner). Default: ${DEFAULT-VALUE}.")
  String seeds;

  @Option(names = "--paths", defaultValue = "3", paramLabel = "<n>", description = "Join paths handed to the LLM, best reward first. Default: ${DEFAULT-VALUE}.")
  int paths;

  @Option(names = "--limit", defaultValue = "50", paramLabel = "<n>", description = "Rows of the result printed. Default: ${DEFAULT-VALUE}.")
  int limit;

  /** The outcome of checking one SQL text. */
  private record Checked(Dataset<Row> df, String refused, String error) {}

  @Override
  public Integer call() {
    if (question == null || question.isBlank()) {
      throw new UserInputException("the question is empty");
    }
    if (paths < 1 || limit < 1) {
      throw new UserInputException("--paths and --limit must be >= 1");
    }
    boolean llmSeeds = QaCommand.kind("--seeds", seeds, "embedded");
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    SparkSession spark = job.session("kgrag ask-sql");
    KgragConf conf = JobOptions.conf(spark);
    boolean llmConfigured = !conf.get(KgragConf.LLM_URL, "").isEmpty() && !conf.get(KgragConf.LLM_MODEL, "").isEmpty();
    LlmConfig llm = llmSeeds || llmConfigured ? conf.llm(llmSeeds ? "--seeds llm" : "kgrag ask-sql") : null;
    Catalog catalog = job.catalog(spark, null);
    SchemaGraph schema = CatalogSchema.of(catalog);
    CatalogSchema.registerHere(catalog);
    CachingChatClient client = llm == null ? null : new CachingChatClient(new OpenAiClient(llm), new InMemoryChatCache());
    Set<String> readable = readable(catalog);

    List<JoinPathFinder.JoinPath> found;
    try (Embedder embedder = conf.embedder(null, null, null).open()) {
      float[][] vectors = embedder.embed(schema.texts());
      float[] query = embedder.embed(List.of(question.strip()))[0];
      List<JoinPathFinder.Candidate> candidates = llmSeeds ? planned(client, question.strip(), schema, embedder, err) : List.of();
      if (candidates.isEmpty()) {
        candidates = embeddedCandidates(schema, vectors, embedder);
      }
      found = new JoinPathFinder(schema, vectors).find(query, candidates, paths);
    } catch (LlmException e) {
      return endpointFailed(err, e);
    }
    out.println("Join paths (QAFD flow diffusion over " + schema.tables().size() + " tables; reward = mean diffusion score on the path):");
    out.println(SqlWriter.describe(found));
    if (client == null) {
      out.println();
      out.println("kgrag ask-sql: no SQL written: writing SQL needs an LLM endpoint. Set " + KgragConf.LLM_URL + " (an OpenAI-compatible API base,"
          + " e.g. http://localhost:8000/v1) and " + KgragConf.LLM_MODEL + " in the --conf-file profile; the key is read from the"
          + " environment variable " + KgragConf.LLM_API_KEY_ENV + " names (default " + LlmConfig.DEFAULT_API_KEY_ENV + ").");
      out.flush();
      return 0;
    }

    SqlWriter writer = new SqlWriter(client);
    SqlWriter.Attempt attempt;
    Checked checked;
    try {
      attempt = writer.write(question, schema, found);
      checked = check(spark, attempt.sql(), readable);
      if (checked.refused() != null) {
        return refuse(err, attempt.sql(), checked.refused());
      }
      if (checked.error() != null) {
        String firstError = checked.error();
        err.println("kgrag ask-sql: the SQL failed; asking for one repair: " + firstError);
        SqlWriter.Attempt repaired = writer.repair(attempt, firstError);
        Checked second = check(spark, repaired.sql(), readable);
        if (second.refused() != null) {
          return refuse(err, repaired.sql(), second.refused());
        }
        if (second.error() != null) {
          err.println("kgrag ask-sql: error: the SQL is still invalid after one repair; nothing was run.");
          err.println("first SQL:\n" + attempt.sql() + "\nfirst error: " + firstError);
          err.println("repaired SQL:\n" + repaired.sql() + "\nsecond error: " + second.error());
          err.flush();
          return INVALID_SQL;
        }
        attempt = repaired;
        checked = second;
      }
    } catch (LlmException e) {
      return endpointFailed(err, e);
    }
    out.println();
    out.println("SQL:");
    out.println(attempt.sql());
    out.println();
    print(out, checked.df());
    out.flush();
    return 0;
  }

  /** Prompt 5's candidates, each with its subquery's embedding; rejections and an unusable plan reported on {@code err}. */
  private static List<JoinPathFinder.Candidate> planned(
      CachingChatClient client, String question, SchemaGraph schema, Embedder embedder, PrintWriter err) {
    SeedPlanner.Plan plan;
    try {
      plan = new SeedPlanner(client).plan(question, schema);
    } catch (IllegalArgumentException e) {
      err.println("kgrag ask-sql: note: the planner's reply was not usable (" + e.getMessage() + "); seeding from the question's keywords");
      return List.of();
    }
    for (String r : plan.rejected()) {
      err.println("kgrag ask-sql: note: planner candidate rejected: " + r);
    }
    if (plan.candidates().isEmpty()) {
      err.println("kgrag ask-sql: note: the planner named no usable source/target pair; seeding from the question's keywords");
      return List.of();
    }
    List<String> subqueries = new ArrayList<>(new LinkedHashSet<>(plan.subqueries()));
    subqueries.removeIf(String::isBlank);
    Map<String, float[]> vectors = new HashMap<>();
    if (!subqueries.isEmpty()) {
      float[][] v = embedder.embed(subqueries);
      for (int i = 0; i < v.length; i++) {
        vectors.put(subqueries.get(i), v[i]);
      }
    }
    List<JoinPathFinder.Candidate> out = new ArrayList<>();
    for (JoinPathFinder.Candidate c : plan.candidates()) {
      out.add(new JoinPathFinder.Candidate(c.source(), c.target(), c.confidence(), c.subquery(), vectors.get(c.subquery())));
    }
    return out;
  }

  /** Source/target pairs among the columns the question's keywords match best. */
  private List<JoinPathFinder.Candidate> embeddedCandidates(SchemaGraph schema, float[][] vectors, Embedder embedder) {
    List<String> keywords = KeywordSeeds.keywords(question);
    if (keywords.isEmpty()) {
      return List.of();
    }
    List<SeedSelection.Seed> found =
        KeywordSeeds.seeds(schema, vectors, Arrays.asList(embedder.embed(keywords)), new SeedSelection.Config(SEEDS, MIN_SEED_SIMILARITY));
    return KeywordSeeds.pairs(schema, found, SEED_POOL, Math.max(3, paths));
  }

  /**
   * The names the model's SQL may read: {@code kgrag.<table>} for each table of this warehouse, as the
   * prompt names them. A path read ({@code parquet.`/…`}, {@code delta.`<warehouse>/…`}), another database, an
   * unqualified name or a view in kgrag is refused before Spark resolves it; a kgrag name the session does
   * not know is left to the analysis (not found: repaired once).
   */
  static Set<String> readable(Catalog catalog) {
    Set<String> out = new TreeSet<>();
    for (KgTable t : KgTable.values()) {
      if (catalog.exists(t)) {
        out.add(t.qualifiedName());
      }
    }
    return out;
  }

  /** One statement, parsed, read-only, reading only {@code tables}, analysed. */
  static Checked check(SparkSession spark, String sql, Set<String> tables) {
    CheckedSql c = CheckedSql.check(spark, sql, tables, Catalog.DATABASE);
    return new Checked(c.df(), c.refused() == null ? null : c.refused().replaceFirst("^not a read-only query \\((.*)\\)$", "$1"), c.error());
  }

  private int refuse(PrintWriter err, String sql, String kind) {
    err.println(kind.startsWith("reads ")
        ? "kgrag ask-sql: refused: the SQL " + kind + "; nothing was run."
        : "kgrag ask-sql: refused: the SQL is not a read-only query (" + kind + "); nothing was run.");
    err.println("SQL:\n" + sql);
    err.flush();
    return REFUSED;
  }

  private static int endpointFailed(PrintWriter err, LlmException e) {
    err.println("kgrag ask-sql: failed: LLM endpoint failed (" + e.kind() + "): " + e.getMessage());
    err.flush();
    return 1;
  }

  private void print(PrintWriter out, Dataset<Row> df) {
    String[] cols = df.columns();
    List<Column> asText = new ArrayList<>();
    for (int i = 0; i < cols.length; i++) {
      asText.add(df.col(quote(cols[i])).cast("string"));
    }
    List<Row> rows = df.limit(limit + 1).select(asText.toArray(new Column[0])).collectAsList();
    out.println(String.join("\t", cols));
    for (int r = 0; r < Math.min(limit, rows.size()); r++) {
      Row row = rows.get(r);
      List<String> cells = new ArrayList<>();
      for (int i = 0; i < cols.length; i++) {
        cells.add(row.isNullAt(i) ? "NULL" : row.getString(i));
      }
      out.println(String.join("\t", cells));
    }
    out.println("(" + Math.min(limit, rows.size()) + (rows.size() > limit ? "+ rows; --limit " + limit + ")" : " rows)"));
  }

  private static String quote(String col) {
    return "`" + col.replace("`", "``") + "`";
  }
}
