package io.kgrag.jobs.internal.method.sgrag;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.flatten;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;

import io.kgrag.core.UserInputException;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.graph.GraphSource;
import io.kgrag.core.method.Outcome;
import io.kgrag.core.qa.normalize.LabelShards;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.sgrag.qa.ExactPlan;
import io.kgrag.core.sgrag.qa.PackedPathHits;
import io.kgrag.core.sgrag.qa.PathHit;
import io.kgrag.core.sgrag.qa.PathQuery;
import io.kgrag.core.sgrag.qa.Retrieval;
import io.kgrag.core.sgrag.qa.SgragComponents;
import io.kgrag.core.sgrag.qa.SgragContext;
import io.kgrag.core.sgrag.qa.SgragPlan;
import io.kgrag.core.sgrag.qa.SgragRetriever;
import io.kgrag.core.understand.QuestionUnderstanding;
import io.kgrag.core.understand.UnderstandingSpec;
import io.kgrag.jobs.api.AbstractRetrievalMethod;
import io.kgrag.jobs.api.MethodRun;
import io.kgrag.jobs.api.MethodSetup;
import io.kgrag.jobs.api.Phase;
import io.kgrag.jobs.api.QaFlag;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphFeatures;
import io.kgrag.jobs.internal.data.PathIndexFiles;
import io.kgrag.jobs.internal.data.StoredGraph;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.qa.ExemplarInput;
import io.kgrag.jobs.internal.qa.LabelExchange;
import io.kgrag.jobs.internal.qa.SharedContext;
import io.kgrag.jobs.internal.stage.embed.LabelIndexTable;
import io.kgrag.jobs.internal.stage.schema.SchemaTable;
import io.kgrag.udfs.sgrag.PathIndexProbe;
import io.kgrag.udfs.sql.SparkArrays;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * SG-RAG ({@code kgrag qa --method sgrag}, the flagship; papers/sg-rag.txt), the batch form of its Algorithm 1
 * over the partitioned path index of the index stages gnn, paths and path-index. Its answering has three
 * executor steps with the path index probed where its partitions live between them ({@link SgragContext}):
 *
 * <ol>
 *   <li>plan: ψ (embedded or Table 12), normalisation (Algorithm 3) and decomposition (Algorithm 4);
 *   <li>probe: every question's label-completion paths in one round ({@link PathIndexProbe}, Algorithm 5);
 *   <li>extend, probe (twice): completion carried one hop further from the labels completed so far, for the
 *       chains of unknowns of 2- and 3-hop questions (nothing to ask for the others);
 *   <li>exact: candidate labels and exact paths (Algorithm 6);
 *   <li>probe: the exact paths in a second round (Algorithm 7);
 *   <li>answer: assembly with verification (Algorithm 8), ranking and γ (extractive or Table 15).
 * </ol>
 *
 * A question's latency counts its probes in every partition they were routed to (Spark's scheduling between
 * rounds is not counted).
 */
public final class SgragMethod extends AbstractRetrievalMethod {
  public static final String NAME = "sgrag";

  private final SgragComponents components;

  /** SG-RAG with the components each run asks for (through ServiceLoader). */
  public SgragMethod() {
    this(null);
  }

  /** SG-RAG with its own ψ and γ whatever the run asks (tests). */
  public SgragMethod(SgragComponents components) {
    super(
        NAME,
        "SG-RAG (default): exact subgraphs that satisfy every constraint, through the partitioned path index",
        List.of("ingest", "embed", "gnn", "paths", "path-index"),
        SgragOptions.class,
        Set.of(QaFlag.PATH_LENGTH, QaFlag.MIN_SIMILARITY, QaFlag.EXEMPLARS));
    this.components = components;
  }

  @Override
  public boolean isDefault() {
    return true;
  }

  @Override
  public MethodRun prepare(MethodSetup setup) {
    Catalog catalog = setup.catalog();
    SgragOptions o = setup.options(SgragOptions.class);
    int pathLength = setup.pathLength();
    for (KgTable t : List.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.ENTITY_EMBEDDINGS, KgTable.GNN_MODELS, KgTable.PATH_INDEX)) {
      if (!catalog.exists(t)) {
        throw new UserInputException(
            "kgrag qa needs table " + t.qualifiedName() + " at " + catalog.location(t) + ": run `kgrag index` on this warehouse first");
      }
    }
    Dataset<Row> index = catalog.read(KgTable.PATH_INDEX).filter(col("length").equalTo(pathLength));
    List<Row> modelIds = index.select("model_id").distinct().collectAsList();
    if (modelIds.isEmpty()) {
      throw new UserInputException(
          "no path index of length " + pathLength + " in " + catalog.location(KgTable.PATH_INDEX)
              + ": run `kgrag index --stages paths,path-index --path-length " + pathLength + "` or pass the length that was built");
    }
    String modelId = modelIds.get(0).getString(0);
    byte[] model = (byte[]) catalog.read(KgTable.GNN_MODELS).filter(col("model_id").equalTo(modelId)).select("params").head().get(0);
    LabelShards labelShards = LabelIndexTable.loadOrBuild(catalog, setup.embedder().modelId()).source();
    Map<String, float[]> relationVectors = new HashMap<>();
    if (catalog.exists(KgTable.RELATION_EMBEDDINGS)) {
      for (Row r : catalog.read(KgTable.RELATION_EMBEDDINGS).filter(col("model").equalTo(setup.embedder().modelId())).select("relation", "vector").collectAsList()) {
        relationVectors.put(r.getString(0), SparkArrays.floats(r.getList(1)));
      }
    }
    ExemplarStore exemplars = ExemplarInput.store(setup.catalog().spark(), setup.exemplars(), setup.embedder());
    GraphSource graph = StoredGraph.of(catalog);
    SgragContext ctx =
        new SgragContext(
            graph, labelShards, model, relationVectors, setup.embedder(), setup.minSimilarity(), o.config(pathLength),
            components != null ? components : SgragComponents.of(setup.components()),
            new UnderstandingSpec(SchemaTable.load(setup.catalog()), exemplars, QuestionUnderstanding.Config.DEFAULT));
    Probe probe = new Probe(index, PathIndexFiles.of(catalog, pathLength));
    List<Phase> phases;
    if (o.labelLookups() == SgragOptions.LabelLookups.EXCHANGE) {
      if (setup.components().llmExtractor()) {
        throw new UserInputException(
            "spark.kgrag.sgrag.label-lookups=exchange runs the query-graph step again once its label lookups are answered, which would ask the LLM"
                + " extractor again: use it with the embedded extractor, or set spark.kgrag.sgrag.label-lookups=local");
      }
      LabelExchange labels = new LabelExchange(labelShards);
      phases = new ArrayList<>(labels.rounds(PLAN_SERVED, LABEL_DIM, PLAN_ROUNDS));
      phases.addAll(List.of(probe, EXTEND, probe, EXTEND, probe));
      phases.add(COMBINATIONS);
      phases.addAll(labels.rounds(EXACT_QUERIES_SERVED, LABEL_DIM, EXACT_ROUNDS));
      phases.addAll(List.of(probe, ANSWER));
    } else {
      phases = List.of(PLAN, probe, EXTEND, probe, EXTEND, probe, EXACT, probe, ANSWER);
    }
    return new MethodRun() {
      @Override
      public Serializable context() {
        return ctx;
      }

      @Override
      public List<Phase> phases() {
        return phases;
      }

      @Override
      public List<String> percentiles() {
        return List.of();
      }
    };
  }

  // ------------------------------------------------------------------ the phases

  /**
   * What a question carries from phase to phase: the completion queries asked and their hits, the ones the next
   * probe asks, then the exact plan and its hits.
   */
  record Planned(SgragPlan plan, List<PathQuery> asked, List<PathHit> completion, List<PathQuery> pending, ExactPlan exact, List<PathHit> exactHits)
      implements Serializable {
    /** Written with its hits packed ({@link PackedPathHits}): a question's state is written and read in every phase. */
    private Object writeReplace() {
      return new PackedPlanned(plan, asked, PackedPathHits.of(completion), pending, exact, exactHits == null ? null : PackedPathHits.of(exactHits));
    }
  }

  /** The serial form of {@link Planned}. */
  private record PackedPlanned(
      SgragPlan plan, List<PathQuery> asked, PackedPathHits completion, List<PathQuery> pending, ExactPlan exact, PackedPathHits exactHits)
      implements Serializable {
    private Object readResolve() {
      return new Planned(plan, asked, completion.unpack(), pending, exact, exactHits == null ? null : exactHits.unpack());
    }
  }

  /** Step 1: ψ, Algorithm 3, Algorithm 4; the plan's query graph is the question's. */
  static final Phase.Tasks PLAN =
      (context, embedder, chat) -> {
        SgragContext ctx = (SgragContext) context;
        SgragContext.Planner planner = ctx.planner(embedder, chat);
        return (q, state, trace, emit) -> {
          SgragPlan plan = planner.plan(q.text());
          trace.queryGraph(plan.graph(), i -> ctx.entityIds(plan, i));
          return new Planned(plan, List.of(), List.of(), plan.completion(), null, null);
        };
      };

  /**
   * Passes of the planning step with the label index's exchange between them: normalisation looks up every mention
   * it reads in one pass, and the understanding may look up more once those are answered.
   */
  static final int PLAN_ROUNDS = 4;

  /** Passes of step 2's query paths with the exchange between them: their label features are all read in the first. */
  static final int EXACT_ROUNDS = 2;

  static final LabelExchange.Dims LABEL_DIM = context -> ((SgragContext) context).labelDim();

  /** Step 1 through a task's view of the context whose label lookups the shards serve ({@link LabelExchange}). */
  static final LabelExchange.ServedStep PLAN_SERVED =
      (context, labels, embedder, chat) -> {
        SgragContext ctx = ((SgragContext) context).served(labels);
        SgragContext.Planner planner = ctx.planner(embedder, chat);
        return (q, state, trace, emit) -> {
          SgragPlan plan = planner.plan(q.text());
          if (labels.missed()) {
            return null; // this pass read lookups the shards have not answered: it is run again
          }
          trace.queryGraph(plan.graph(), i -> ctx.entityIds(plan, i));
          return new Planned(plan, List.of(), List.of(), plan.completion(), null, null);
        };
      };

  /** Step 2's combinations of the unknowns' labels (no label feature read), kept for its query paths. */
  static final Phase.Tasks COMBINATIONS =
      (context, embedder, chat) -> {
        SgragRetriever retriever = ((SgragContext) context).retriever();
        return (q, state, trace, emit) -> {
          Planned p = (Planned) state;
          return new Planned(p.plan(), p.asked(), p.completion(), List.of(), retriever.combinations(p.plan(), p.asked(), p.completion()), null);
        };
      };

  /**
   * Step 2's query paths from its combinations, through a task's view whose label features the shards serve: the
   * first pass reads the features of every key of every combination, the second builds the paths.
   */
  static final LabelExchange.ServedStep EXACT_QUERIES_SERVED =
      (context, labels, embedder, chat) -> {
        SgragRetriever retriever = ((SgragContext) context).served(labels).retriever();
        return (q, state, trace, emit) -> {
          Planned p = (Planned) state;
          return new Planned(p.plan(), p.asked(), p.completion(), List.of(), retriever.queries(p.plan(), p.exact()), null);
        };
      };

  /** Label completion one hop further along a chain of unknowns (Algorithm 5 from the labels completed so far). */
  static final Phase.Tasks EXTEND =
      (context, embedder, chat) -> {
        SgragRetriever retriever = ((SgragContext) context).retriever();
        return (q, state, trace, emit) -> {
          Planned p = (Planned) state;
          return new Planned(p.plan(), p.asked(), p.completion(), retriever.extend(p.plan(), p.asked(), p.completion()), null, null);
        };
      };

  /** Step 2: candidate labels and exact paths from the completion hits (Algorithm 6). */
  static final Phase.Tasks EXACT =
      (context, embedder, chat) -> {
        SgragRetriever retriever = ((SgragContext) context).retriever();
        return (q, state, trace, emit) -> {
          Planned p = (Planned) state;
          return new Planned(p.plan(), p.asked(), p.completion(), List.of(), retriever.exact(p.plan(), p.asked(), p.completion()), null);
        };
      };

  /** Step 3: assembly with verification (Algorithm 8), ranking and γ. */
  static final Phase.Tasks ANSWER =
      (context, embedder, chat) -> {
        SgragContext ctx = (SgragContext) context;
        SgragRetriever retriever = ctx.retriever();
        AnswerGenerator generator = ctx.generator(chat);
        return (q, state, trace, emit) -> {
          Planned p = (Planned) state;
          ExactPlan exact = p.exact() == null ? ExactPlan.NONE : p.exact();
          Retrieval ret = retriever.retrieve(p.plan(), exact, p.completion(), p.exactHits() == null ? List.of() : p.exactHits());
          GeneratedAnswer g = generator.generate(q.text(), p.plan().graph(), ret.candidates());
          String reason = ret.note() == null || ret.note().isEmpty() ? null : ret.note().replaceFirst("^; ", "");
          return new Outcome(g, g.unable() ? AnswerStatus.UNABLE : ret.status(), reason);
        };
      };

  /**
   * A probe round of the partitioned path index: the completion paths after step 1, the exact paths after step 2;
   * each question's hits, per path, with the probe time of its paths in every partition they went to.
   */
  static final class Probe implements Phase.Exchange {
    private static final long serialVersionUID = 1L;
    private final transient Dataset<Row> index;
    private final transient PathIndexFiles trees;
    private transient PathIndexProbe probe;

    /** @param trees the index's files the probes read their trees from; null: a Spark scan of {@code index} */
    Probe(Dataset<Row> index, PathIndexFiles trees) {
      this.index = index;
      this.trees = trees;
    }

    @Override
    public StructType requestSchema() {
      return PathIndexProbe.QUERIES;
    }

    @Override
    public List<Row> requests(long qnum, Object state) {
      Planned p = (Planned) state;
      List<PathQuery> queries = p.exact() == null ? p.pending() : p.exact().queries();
      List<Row> out = new ArrayList<>(queries.size());
      for (PathQuery q : queries) {
        out.add(RowFactory.create(qnum, q.pathNo(), SparkArrays.boxed(q.labelKeys()), SparkArrays.boxed(q.vector())));
      }
      return out;
    }

    @Override
    public Dataset<Row> serve(SparkSession spark, Dataset<Row> requests) {
      if (probe == null) {
        probe = new PathIndexProbe(spark, index, trees); // the partitions' summaries, read once per run
      }
      Dataset<Row> probed = probe.probeGrouped(requests);
      // per path, its hits in every partition; per question, its paths
      Dataset<Row> perPath = probed.groupBy("qid", "path_no").agg(flatten(collect_list(col("hits"))).as("hits"), sum("probe_nanos").as("probe_nanos"));
      Dataset<Row> perQuestion =
          perPath.groupBy("qid").agg(collect_list(struct(col("path_no"), col("hits"))).as("hits"), sum("probe_nanos").as("probe_nanos"));
      return perQuestion.mapPartitions(
          (MapPartitionsFunction<Row, Row>) it -> {
            List<Row> out = new ArrayList<>();
            while (it.hasNext()) {
              Row r = it.next();
              out.add(RowFactory.create(r.getLong(0), SharedContext.write(PackedPathHits.of(hits(r.getList(1)))), r.getLong(2)));
            }
            return out.iterator();
          },
          Encoders.row(Phase.Exchange.SERVED));
    }

    @Override
    public Object merge(Object state, byte[] payload) {
      Planned p = (Planned) state;
      List<PathHit> hits = payload == null ? new ArrayList<>() : ((PackedPathHits) SharedContext.read(payload)).unpack();
      if (p.exact() != null) {
        return new Planned(p.plan(), p.asked(), p.completion(), List.of(), p.exact(), hits);
      }
      if (p.pending().isEmpty()) {
        return p;
      }
      List<PathQuery> asked = new ArrayList<>(p.asked());
      asked.addAll(p.pending());
      List<PathHit> completion = new ArrayList<>(p.completion());
      completion.addAll(hits);
      return new Planned(p.plan(), asked, completion, List.of(), null, null);
    }
  }

  /** A question's grouped hits as path hits, in the order the grouping gave them. */
  static ArrayList<PathHit> hits(List<Row> grouped) {
    ArrayList<PathHit> out = new ArrayList<>();
    for (Row h : grouped) {
      int pathNo = h.getInt(0);
      for (Object nodes : h.getList(1)) {
        out.add(new PathHit(pathNo, nodes instanceof List<?> l ? SparkArrays.longs(l) : SparkArrays.longs(seq(nodes))));
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static scala.collection.Seq<Long> seq(Object o) {
    return (scala.collection.Seq<Long>) o;
  }
}
