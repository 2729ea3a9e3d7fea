package io.kgrag.jobs.api;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.method.MethodContext;
import io.kgrag.core.method.Trace;
import io.kgrag.jobs.catalog.KgTable;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * One step every question of a run goes through. Most methods answer in one {@link Tasks} phase ({@link
 * #ANSWER}: the context's {@link io.kgrag.core.method.QuestionAnswerer} on the executors). A method whose
 * answering needs the whole run between two steps declares more: SG-RAG probes its partitioned path index
 * between planning and assembly ({@link Exchange}: every question's requests served by one Spark operation,
 * where the index partitions live), SRAG runs each question's SQL through Spark on the driver ({@link Driver}).
 *
 * <p>A question's state goes from phase to phase (null into the first, serialisable between them); the last
 * phase returns its {@link io.kgrag.core.method.Outcome}. A step that throws ends the question there, with
 * status {@code error} (or the status of a {@link io.kgrag.core.qa.QaException}); the batch goes on. The
 * question's {@link Trace} travels with it, and its latency is the sum of its steps and its share of the
 * exchanges.
 */
public sealed interface Phase permits Phase.Tasks, Phase.Exchange, Phase.Driver {

  /** The one-phase default: each task's {@link MethodContext#answerer} answers its questions. */
  Tasks ANSWER =
      (Tasks) (context, embedder, chat) -> {
        var answerer = ((MethodContext) context).answerer(embedder, chat);
        return (q, state, trace, emit) -> answerer.answer(q.text(), trace);
      };

  /** A question as a step sees it. */
  record Question(String qid, String text) implements Serializable {}

  /** Rows a step adds to the run's side tables: the table's columns after run_id and dataset. */
  @FunctionalInterface
  interface Emit {
    void row(KgTable table, Object... values);
  }

  /** What a step does to one question. */
  @FunctionalInterface
  interface Step {
    /**
     * @param state what the previous phase returned (null in the first phase)
     * @return the question's next state; in the last phase its {@link io.kgrag.core.method.Outcome}
     */
    Object apply(Question question, Object state, Trace trace, Emit emit);
  }

  /** On the executors, per question, over the shipped context. */
  @FunctionalInterface
  non-sealed interface Tasks extends Phase, Serializable {
    /**
     * Opens one task's step.
     *
     * @param embedder the task's embedder, opened on first use
     * @param chat the task's LLM client over its questions' cached replies; null when the run asks no LLM
     */
    Step open(Serializable context, Embedder embedder, CachingChatClient chat);
  }

  /** Between task phases: every question's requests served together by one Spark operation. */
  non-sealed interface Exchange extends Phase, Serializable {
    /** The request rows' schema; its first column is {@code qnum} (long), the question's number. */
    StructType requestSchema();

    /** The requests of one question's state (on the executors). */
    List<Row> requests(long qnum, Object state);

    /** The schema of {@link #serve}'s rows. */
    StructType SERVED =
        new StructType()
            .add("qnum", DataTypes.LongType, false)
            .add("payload", DataTypes.BinaryType, true)
            .add("nanos", DataTypes.LongType, false);

    /**
     * Serves every request (on the driver, as Spark operations): one row per question that asked, {@link #SERVED}
     * {@code (qnum long, payload binary, nanos long)}, nanos being the question's share of the work.
     */
    Dataset<Row> serve(SparkSession spark, Dataset<Row> requests);

    /** The question's state with its answer (on the executors); {@code payload} is null when it asked nothing. */
    Object merge(Object state, byte[] payload);
  }

  /** On the driver, one question after another in the order of their qids. */
  @FunctionalInterface
  non-sealed interface Driver extends Phase {
    /** @param chat the driver's LLM client over the questions' cached replies; null without an LLM */
    Step open(Serializable context, SparkSession spark, CachingChatClient chat);
  }
}
