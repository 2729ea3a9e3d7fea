package io.kgrag.jobs.internal.method.qafd;

import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.qafd.QafdContext;
import io.kgrag.core.understand.QuestionUnderstanding;
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
 * QAFD-RAG ({@code kgrag qa --method qafd}, papers/qafd-rag.txt): each question's keywords (from the question
 * understanding, or the paper's Prompt 2) turned into seeds, a query-aware flow diffusion from them over the graph's
 * CSR adjacency (Algorithm 2, local source mass; the relations the understanding's chain names weigh fully), and the
 * answer from the diffusion's support ({@link io.kgrag.core.qafd.QafdContext}). The diffusion is sequential
 * and local, so it runs inside the task, never as a Spark job per step. Reads only the ingest and embed tables.
 */
public final class QafdMethod extends AbstractRetrievalMethod {
  public static final String NAME = "qafd";

  public QafdMethod() {
    super(
        NAME,
        "QAFD-RAG: query-aware flow diffusion from the question's seed entities",
        List.of("ingest", "embed"),
        QafdOptions.class,
        Set.of(QaFlag.EXEMPLARS, QaFlag.MIN_SIMILARITY));
  }

  @Override
  public MethodRun prepare(MethodSetup setup) {
    QafdOptions o = setup.options(QafdOptions.class);
    LabelLoad labels = LabelLoad.of(setup.catalog(), setup.embedder(), "kgrag qa --method qafd", Math.max(64, 4 * o.seeds()));
    RunLog.progress(String.format(Locale.ROOT, "qafd context: %s in %.1f s (%s)", labels.sizes(), labels.seconds(), labels.times()));
    ExemplarStore store = ExemplarInput.store(setup.catalog().spark(), setup.exemplars(), setup.embedder());
    QafdContext ctx =
        new QafdContext(labels.labels(), setup.embedder(), setup.minSimilarity(), o.config(),
            new UnderstandingSpec(SchemaTable.load(setup.catalog()), store, QuestionUnderstanding.Config.DEFAULT), setup.components());
    return MethodRun.of(ctx, List.of("seed_nanos", "diffusion_nanos", "touched", "pushes", "support"), List.of("unconverged"));
  }
}
