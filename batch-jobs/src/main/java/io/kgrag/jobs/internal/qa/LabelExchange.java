package io.kgrag.jobs.internal.qa;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qa.normalize.LabelRequest;
import io.kgrag.core.qa.normalize.LabelShards;
import io.kgrag.core.qa.normalize.ServedLabels;
import io.kgrag.jobs.api.Phase;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The label index's lookups served where its shards are, so that no executor holds the whole index (at 10M edges
 * 1.7 GB): a step that reads the index through {@link ServedLabels} runs in {@link #rounds rounds}; after each, the
 * lookups it could not answer go to the shards in one Spark operation (every question's requests beside every shard,
 * one task per shard, each reading only its shard's files), the shards' answers are merged per question ({@link
 * LabelRequest#merge}) and the step runs again, until it asks nothing new. The answers are those of the whole index.
 */
public final class LabelExchange implements Phase.Exchange {
  private static final long serialVersionUID = 1L;

  static final StructType REQUESTS = new StructType().add("qnum", DataTypes.LongType, false).add("request", DataTypes.BinaryType, false);
  private static final StructType ANSWERS =
      new StructType()
          .add("qnum", DataTypes.LongType, false)
          .add("request", DataTypes.BinaryType, false)
          .add("answer", DataTypes.BinaryType, false)
          .add("nanos", DataTypes.LongType, false);

  private final LabelShards shards;

  public LabelExchange(LabelShards shards) {
    this.shards = shards;
  }

  /** A question's state while its step waits for lookups: the state the step was given, what is answered, what it asks. */
  public record Waiting(Object before, ServedLabels.Answered answered, List<LabelRequest> asking) implements Serializable {}

  /** Opens a step that reads the label index through {@code labels} (one per task; its answers set per question). */
  @FunctionalInterface
  public interface ServedStep extends Serializable {
    Phase.Step open(Serializable context, ServedLabels labels, Embedder embedder, CachingChatClient chat);
  }

  /** The dimension of the label vectors a context's steps read. */
  @FunctionalInterface
  public interface Dims extends Serializable {
    int of(Serializable context);
  }

  /**
   * {@code step} in at most {@code rounds} passes with this exchange between them: the first pass takes every
   * question; a later one only those still waiting for lookups. A question still asking after the last pass fails
   * with a message that says so (a step whose lookups depend on more than {@code rounds - 1} answers in turn).
   */
  public List<Phase> rounds(ServedStep step, Dims dims, int rounds) {
    if (rounds < 2) {
      throw new IllegalArgumentException("rounds must be at least 2, got " + rounds);
    }
    List<Phase> out = new ArrayList<>();
    for (int r = 1; r <= rounds; r++) {
      if (r > 1) {
        out.add(this);
      }
      out.add(pass(step, dims, r, rounds));
    }
    return out;
  }

  private static Phase.Tasks pass(ServedStep step, Dims dims, int round, int rounds) {
    return (context, embedder, chat) -> {
      ServedLabels labels = new ServedLabels(dims.of(context));
      Phase.Step inner = step.open(context, labels, embedder, chat);
      return (q, state, trace, emit) -> {
        if (round > 1 && !(state instanceof Waiting)) {
          return state; // answered in an earlier pass
        }
        Waiting w = state instanceof Waiting ww ? ww : null;
        Object before = w == null ? state : w.before();
        ServedLabels.Answered answered = w == null ? ServedLabels.Answered.NONE : w.answered();
        labels.answerFrom(answered);
        Object out;
        try {
          out = inner.apply(q, before, trace, emit);
        } catch (RuntimeException e) {
          if (!labels.missed()) {
            throw e;
          }
          out = null; // a pass over unanswered lookups may fail; the next one reads their answers
        }
        if (!labels.missed()) {
          return out;
        }
        if (round == rounds) {
          throw new IllegalStateException(
              "this question's label lookups did not settle in " + rounds + " rounds of the label index exchange (" + labels.missing().size()
                  + " still unanswered, " + answered.size() + " answered): run it with spark.kgrag.sgrag.label-lookups=local");
        }
        return new Waiting(before, answered, labels.missing());
      };
    };
  }

  @Override
  public StructType requestSchema() {
    return REQUESTS;
  }

  @Override
  public List<Row> requests(long qnum, Object state) {
    if (!(state instanceof Waiting w)) {
      return List.of();
    }
    List<Row> out = new ArrayList<>(w.asking().size());
    for (LabelRequest r : w.asking()) {
      out.add(RowFactory.create(qnum, SharedContext.write(r)));
    }
    return out;
  }

  @Override
  public Dataset<Row> serve(SparkSession spark, Dataset<Row> requests) {
    int n = shards.count();
    LabelShards source = shards;
    Dataset<Row> ids = spark.range(0, n, 1, n).toDF("shard");
    // every request beside every shard, one task per shard: a task reads its shard's files only
    Dataset<Row> routed = requests.crossJoin(ids).repartition(n, col("shard")).sortWithinPartitions("shard");
    Dataset<Row> answered =
        routed.mapPartitions(
            (MapPartitionsFunction<Row, Row>) it -> {
              List<Row> out = new ArrayList<>();
              int held = -1;
              LabelIndex shard = null;
              while (it.hasNext()) {
                Row r = it.next();
                int s = (int) r.getLong(2);
                if (s != held) {
                  shard = null; // at most one shard held at a time
                  shard = source.shard(s);
                  held = s;
                }
                long t0 = System.nanoTime();
                byte[] request = r.getAs("request");
                LabelRequest.Answer a = ((LabelRequest) SharedContext.read(request)).answerFrom(shard);
                out.add(RowFactory.create(r.getLong(0), request, SharedContext.write(a), System.nanoTime() - t0));
              }
              return out.iterator();
            },
            Encoders.row(ANSWERS));
    Dataset<Row> perQuestion =
        answered.groupBy("qnum").agg(collect_list(struct(col("request"), col("answer"))).as("answers"), sum("nanos").as("nanos"));
    return perQuestion.mapPartitions(
        (MapPartitionsFunction<Row, Row>) it -> {
          List<Row> out = new ArrayList<>();
          while (it.hasNext()) {
            Row r = it.next();
            out.add(RowFactory.create(r.getLong(0), SharedContext.write(merged(r.getList(1))), r.getLong(2)));
          }
          return out.iterator();
        },
        Encoders.row(Phase.Exchange.SERVED));
  }

  /** Per request, the shards' answers merged into the whole index's. */
  static HashMap<LabelRequest, LabelRequest.Answer> merged(List<Row> answers) {
    Map<LabelRequest, List<LabelRequest.Answer>> byRequest = new LinkedHashMap<>();
    for (Row a : answers) {
      LabelRequest request = (LabelRequest) SharedContext.read(a.getAs("request"));
      byRequest.computeIfAbsent(request, k -> new ArrayList<>()).add((LabelRequest.Answer) SharedContext.read(a.getAs("answer")));
    }
    HashMap<LabelRequest, LabelRequest.Answer> out = new HashMap<>();
    byRequest.forEach((request, shardAnswers) -> out.put(request, request.merge(shardAnswers)));
    return out;
  }

  @Override
  public Object merge(Object state, byte[] payload) {
    if (!(state instanceof Waiting w) || payload == null) {
      return state;
    }
    @SuppressWarnings("unchecked")
    Map<LabelRequest, LabelRequest.Answer> answers = (Map<LabelRequest, LabelRequest.Answer>) SharedContext.read(payload);
    return new Waiting(w.before(), w.answered().with(answers), List.of());
  }
}
