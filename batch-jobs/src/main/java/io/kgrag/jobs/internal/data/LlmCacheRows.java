package io.kgrag.jobs.internal.data;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.current_timestamp;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;

import io.delta.tables.DeltaTable;
import io.kgrag.core.llm.CachedChat;
import io.kgrag.core.llm.CachingChatClient.Usage;
import io.kgrag.core.llm.ChatLedger;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Moves {@code llm_cache} rows to the QA tasks and their new replies and token counts back.
 *
 * <p><b>To the tasks: a join, not a broadcast.</b> Every prompt kgrag qa sends contains the question
 * text, so the replies a question can reuse are those stored under its item key (the SHA-256 of the
 * question text, {@link #itemKey}). The job joins its questions with the model's cache rows by that key
 * and each question row carries its own cached replies ({@link #CACHED}) to the task that answers it,
 * which starts its {@link ChatLedger} from those of its rows. What travels is bounded by the run's
 * questions, not by the cache's history: a broadcast of every reply the model ever gave would grow with
 * each run and be held whole by every executor.
 *
 * <p><b>Back to the driver: with the rows.</b> Each question's row carries what its LLM work added to
 * the cache and cost ({@link #STEP}), in each of the two stages that may ask (extraction, generation).
 * Rows are persisted before they are read ({@link PinnedRows}, out of the cache manager, so that the merge
 * below does not clear them and have every failed question asked again), so each step is counted and
 * asked once; a recomputed task replaces its rows and their steps together (unlike an accumulator, which
 * would count a retried task twice).
 * {@link #write} then merges the new replies into {@code llm_cache} in one Delta commit, inserting only
 * (model, prompt_hash) pairs it does not hold.
 */
public final class LlmCacheRows {
  /** A cached reply as a task sees it (the model is the run's). */
  public static final StructType ENTRY =
      new StructType()
          .add("prompt_hash", DataTypes.StringType, false)
          .add("response", DataTypes.StringType, false)
          .add("tokens_in", DataTypes.IntegerType, true)
          .add("tokens_out", DataTypes.IntegerType, true);

  /** A question's cached replies. */
  public static final ArrayType CACHED = DataTypes.createArrayType(ENTRY, false);

  /** One question's LLM work in one stage: the replies it added to the cache and its counts. */
  public static final StructType STEP =
      new StructType()
          .add("added", CACHED, false)
          .add("calls", DataTypes.LongType, false)
          .add("cache_hits", DataTypes.LongType, false)
          .add("tokens_in", DataTypes.LongType, false)
          .add("tokens_out", DataTypes.LongType, false);

  /** What {@link #write} did: the run's summed counts, the replies inserted and the table's version. */
  public record Written(Usage usage, long inserted, long version) {}

  private LlmCacheRows() {}

  /** The item key of a question: the lower-case hex SHA-256 of its UTF-8 text. */
  public static Column itemKey(Column question) {
    return org.apache.spark.sql.functions.sha2(question, 256);
  }

  /**
   * {@code questions} with column {@code cached}: the replies of {@code model} stored under each row's
   * {@code item_key} (null when there are none, or when the cache table does not exist yet).
   */
  public static Dataset<Row> withCached(Catalog catalog, String model, Dataset<Row> questions) {
    if (!catalog.exists(KgTable.LLM_CACHE)) {
      return questions.withColumn("cached", lit(null).cast(CACHED));
    }
    Dataset<Row> keys = questions.select(col("item_key").as("k")).filter(col("k").isNotNull()).distinct();
    Dataset<Row> cached =
        catalog.read(KgTable.LLM_CACHE)
            .filter(col("model").equalTo(lit(model)).and(col("item_key").isNotNull()))
            .join(keys, col("item_key").equalTo(col("k")), "left_semi")
            .groupBy(col("item_key").as("ck"))
            .agg(collect_list(struct(col("prompt_hash"), col("response"), col("tokens_in"), col("tokens_out"))).as("cached"));
    return questions.join(cached, questions.col("item_key").equalTo(cached.col("ck")), "left").drop("ck");
  }

  /** The cached replies of {@code rows} (column {@code field}, a {@link #CACHED} array), as entries of {@code model}. */
  public static List<CachedChat> cached(List<Row> rows, String field, String model) {
    List<CachedChat> out = new ArrayList<>();
    for (Row r : rows) {
      int i = r.fieldIndex(field);
      if (r.isNullAt(i)) {
        continue;
      }
      for (Row e : r.<Row>getList(i)) {
        out.add(new CachedChat(model, e.getString(0), e.getString(1), intOrNull(e, 2), intOrNull(e, 3)));
      }
    }
    return out;
  }

  /** The {@link #STEP} row of the ledger's work since its previous step; null without a ledger. */
  public static Row step(ChatLedger ledger) {
    return ledger == null ? null : step(ledger.next());
  }

  /** {@code s} as a {@link #STEP} row. */
  public static Row step(ChatLedger.Step s) {
    List<Row> added = new ArrayList<>();
    for (CachedChat c : s.added()) {
      added.add(RowFactory.create(c.promptHash(), c.response(), c.tokensIn(), c.tokensOut()));
    }
    Usage u = s.usage();
    return RowFactory.create(added.toArray(new Row[0]), u.calls(), u.cacheHits(), u.tokensIn(), u.tokensOut());
  }

  /**
   * Sums the counts of {@code steps} (columns {@code item_key} and {@code llm}, a {@link #STEP}) and merges
   * their new replies into {@code llm_cache} as rows of {@code model}, in one commit that inserts only the
   * (model, prompt_hash) pairs the table does not hold (two tasks that asked the same new prompt give one
   * row). Nothing is written when there is no new reply.
   */
  public static Written write(Catalog catalog, String model, Dataset<Row> steps) {
    Row sums =
        steps.agg(
                coalesce(sum("llm.calls"), lit(0L)), coalesce(sum("llm.cache_hits"), lit(0L)),
                coalesce(sum("llm.tokens_in"), lit(0L)), coalesce(sum("llm.tokens_out"), lit(0L)))
            .head();
    Usage usage = new Usage(sums.getLong(0), sums.getLong(1), sums.getLong(2), sums.getLong(3));
    Dataset<Row> entries =
        steps.filter(col("llm").isNotNull())
            .select(col("item_key"), explode(col("llm.added")).as("e"))
            .select(
                lit(model).as("model"), col("e.prompt_hash").as("prompt_hash"), col("e.response").as("response"),
                col("e.tokens_in").as("tokens_in"), col("e.tokens_out").as("tokens_out"), col("item_key"),
                current_timestamp().as("created_at"))
            .dropDuplicates("model", "prompt_hash");
    if (entries.isEmpty()) {
      return new Written(usage, 0, catalog.version(KgTable.LLM_CACHE));
    }
    catalog.delta(KgTable.LLM_CACHE).as("t")
        .merge(Catalog.conform(KgTable.LLM_CACHE, entries).as("s"), "t.model = s.model AND t.prompt_hash = s.prompt_hash")
        .whenNotMatched().insertAll()
        .execute();
    Row r = DeltaTable.forPath(catalog.spark(), catalog.location(KgTable.LLM_CACHE)).history(1).select("version", "operationMetrics").head();
    Map<String, String> m = scala.collection.JavaConverters.mapAsJavaMap(r.<String, String>getMap(1));
    String inserted = m.get("numTargetRowsInserted");
    return new Written(usage, inserted == null ? 0 : Long.parseLong(inserted), r.getLong(0));
  }

  private static Integer intOrNull(Row r, int i) {
    return r.isNullAt(i) ? null : r.getInt(i);
  }
}
