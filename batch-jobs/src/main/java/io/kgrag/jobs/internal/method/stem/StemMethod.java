package io.kgrag.jobs.internal.method.stem;

import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.stem.GuidanceModel;
import io.kgrag.core.stem.StemContext;
import io.kgrag.core.understand.UnderstandingSpec;
import io.kgrag.jobs.api.AbstractRetrievalMethod;
import io.kgrag.jobs.api.MethodRun;
import io.kgrag.jobs.api.MethodSetup;
import io.kgrag.jobs.api.QaFlag;
import io.kgrag.jobs.internal.qa.ExemplarInput;
import io.kgrag.jobs.internal.qa.LabelLoad;
import io.kgrag.jobs.internal.stage.schema.SchemaTable;
import io.kgrag.jobs.internal.stage.stem.StemGnnStage;
import io.kgrag.jobs.runs.RunLog;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * STEM ({@code kgrag qa --method stem}, papers/stem.txt): schema plans (the question understanding's query graphs,
 * or the paper's P1/P2), the guidance graph of the Triple-GNN the stem-gnn stage trained, anchoring and structure
 * tracing (Algorithms 1–2, Precision and Breadth), and extractive or P3 answers over the reasoning chains ({@link
 * io.kgrag.core.stem.StemContext}).
 */
public final class StemMethod extends AbstractRetrievalMethod {
  public static final String NAME = "stem";

  public StemMethod() {
    super(
        NAME,
        "STEM: schema plans traced through the graph with a Triple-GNN's guidance",
        List.of("ingest", "embed", "stem-gnn"),
        StemOptions.class,
        Set.of(QaFlag.EXEMPLARS, QaFlag.MIN_SIMILARITY));
  }

  @Override
  public MethodRun prepare(MethodSetup setup) {
    StemOptions o = setup.options(StemOptions.class);
    ExemplarStore store = ExemplarInput.store(setup.catalog().spark(), setup.exemplars(), setup.embedder());
    LabelLoad labels = LabelLoad.of(setup.catalog(), setup.embedder(), "kgrag qa --method stem", Math.max(64, 2 * o.anchorCandidates()));
    long t0 = System.nanoTime();
    GuidanceModel guidance =
        o.guidance() == StemOptions.Guidance.GNN
            ? StemGnnStage.load(setup.catalog(), setup.embedder().modelId(), labels.labels().relationVectors())
            : GuidanceModel.NONE;
    double modelSeconds = (System.nanoTime() - t0) / 1e9;
    RunLog.progress(String.format(Locale.ROOT, "stem context: %s, %s, guidance %s in %.1f s (%s, model %.1f s)", labels.sizes(),
        store == null ? "no exemplars" : String.format(Locale.ROOT, "%,d exemplars", store.exemplars()), guidance.describe(),
        labels.seconds() + modelSeconds, labels.times(), modelSeconds));
    StemContext ctx =
        new StemContext(
            labels.labels(), new UnderstandingSpec(SchemaTable.load(setup.catalog()), store, o.understandConfig()), guidance, setup.embedder(),
            setup.minSimilarity(), o.config(), setup.components());
    return MethodRun.of(ctx, List.of("decompose_nanos", "guidance_nanos", "anchor_nanos", "trace_nanos", "matches"), List.of("truncated"));
  }
}
