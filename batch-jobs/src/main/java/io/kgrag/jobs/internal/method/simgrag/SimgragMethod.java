package io.kgrag.jobs.internal.method.simgrag;

import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.simgrag.SimgragContext;
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
 * SimGRAG ({@code kgrag qa --method simgrag}, papers/simgrag.txt): a pattern graph per question (the question
 * understanding's chains or star, labelled questions voting, or the paper's prompt), candidate nodes and relations by
 * vector search, and the exact top-k subgraphs by Graph Semantic Distance (Algorithm 1 with the eq. 11 bound)
 * over the graph shipped to every task ({@link io.kgrag.core.simgrag.SimgragContext}). Reads only the ingest and
 * embed tables.
 */
public final class SimgragMethod extends AbstractRetrievalMethod {
  public static final String NAME = "simgrag";

  public SimgragMethod() {
    super(
        NAME,
        "SimGRAG: the subgraphs most similar to the question's pattern graph, by Graph Semantic Distance",
        List.of("ingest", "embed"),
        SimgragOptions.class,
        Set.of(QaFlag.EXEMPLARS, QaFlag.MIN_SIMILARITY));
  }

  @Override
  public MethodRun prepare(MethodSetup setup) {
    SimgragOptions o = setup.options(SimgragOptions.class);
    ExemplarStore store = ExemplarInput.store(setup.catalog().spark(), setup.exemplars(), setup.embedder());
    // efSearch = 8 k^(n) as in the paper's setup
    LabelLoad labels = LabelLoad.of(setup.catalog(), setup.embedder(), "kgrag qa --method simgrag", 8 * o.nodeCandidates());
    RunLog.progress(String.format(Locale.ROOT, "simgrag context: %s, %s in %.1f s (%s)", labels.sizes(),
        store == null ? "no exemplars"
            : String.format(Locale.ROOT, "%,d exemplars (%,d distinct masked texts, %d patterns)", store.exemplars(), store.distinctTexts(), store.patterns().size()),
        labels.seconds(), labels.times()));
    SimgragContext ctx =
        new SimgragContext(labels.labels(), setup.embedder(), setup.minSimilarity(), o.config(),
            new UnderstandingSpec(SchemaTable.load(setup.catalog()), store, o.understandConfig()), setup.components());
    return MethodRun.of(ctx, List.of("pattern_nanos", "candidates_nanos", "search_nanos"), List.of("expansions"));
  }
}
