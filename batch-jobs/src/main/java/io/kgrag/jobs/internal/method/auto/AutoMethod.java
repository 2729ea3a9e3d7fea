package io.kgrag.jobs.internal.method.auto;

import io.kgrag.core.auto.AutoContext;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.understand.GraphSchema;
import io.kgrag.core.understand.UnderstandingSpec;
import io.kgrag.jobs.api.AbstractRetrievalMethod;
import io.kgrag.jobs.api.MethodRun;
import io.kgrag.jobs.api.MethodSetup;
import io.kgrag.jobs.api.QaFlag;
import io.kgrag.jobs.internal.qa.ExemplarInput;
import io.kgrag.jobs.internal.qa.LabelLoad;
import io.kgrag.jobs.internal.stage.schema.SchemaTable;
import io.kgrag.jobs.runs.RunLog;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code kgrag qa --method auto}: one graph-grounded question understanding (mentions linked to the graph,
 * programs enumerated over the graph's schema and ranked by paraphrase similarity and, with {@code --exemplars},
 * by the nearest labelled questions' programs) answers every question with its program's complete answer set,
 * each answer with its evidence edges; the answers row's note says which program decided and why. Reads only
 * the ingest and embed tables.
 */
public final class AutoMethod extends AbstractRetrievalMethod {
  public static final String NAME = "auto";

  public AutoMethod() {
    super(
        NAME,
        "auto: the question's program over the graph's schema (chains, intersections, counts), complete answer sets",
        List.of("ingest", "embed"),
        AutoOptions.class,
        Set.of(QaFlag.EXEMPLARS, QaFlag.MIN_SIMILARITY));
  }

  @Override
  public MethodRun prepare(MethodSetup setup) {
    AutoOptions o = setup.options(AutoOptions.class);
    ExemplarStore store = ExemplarInput.store(setup.catalog().spark(), setup.exemplars(), setup.embedder());
    LabelLoad labels = LabelLoad.of(setup.catalog(), setup.embedder(), "kgrag qa --method auto", 64);
    long t0 = System.nanoTime();
    GraphSchema schema = SchemaTable.load(setup.catalog());
    RunLog.progress(String.format(Locale.ROOT, "auto context: %s, schema of %d roles in %.1f s, %s in %.1f s (%s)", labels.sizes(), schema.roles(),
        (System.nanoTime() - t0) / 1e9,
        store == null ? "no exemplars" : String.format(Locale.ROOT, "%,d exemplars", store.exemplars()), labels.seconds(), labels.times()));
    AutoContext ctx =
        new AutoContext(labels.labels(), new UnderstandingSpec(schema, store, o.config()), setup.embedder(), setup.minSimilarity(), o.maxAnswers(), o.walkCap(), o.degreePenalty());
    return MethodRun.of(ctx, List.of("understand_nanos", "execute_nanos"), List.of("programs", "programs_tried", "answers"));
  }
}
