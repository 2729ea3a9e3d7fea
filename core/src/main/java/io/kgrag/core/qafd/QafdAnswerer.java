package io.kgrag.core.qafd;

import io.kgrag.core.method.Outcome;
import io.kgrag.core.method.QuestionAnswerer;
import io.kgrag.core.method.Trace;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QueryGraph;
import java.util.List;

/**
 * QAFD-RAG for one question: its keywords (embedded or the paper's Prompt 2), seeds by label similarity
 * (Algorithm 1), the query-aware flow diffusion from them (Algorithm 2) and the answer from its support
 * (extractive, or Prompt 3). Figures per question: seed and diffusion times, nodes touched, pushes, support
 * size, and whether the diffusion hit the push cap ({@code unconverged}).
 */
final class QafdAnswerer implements QuestionAnswerer {
  /** A question's keywords and, from the question understanding, its query graph (null from the LLM). */
  record Extracted(Keywords keywords, QueryGraph queryGraph) {}

  /** Turns a question into its keywords. */
  interface KeywordSource {
    Extracted extract(String question);
  }

  private final QafdContext ctx;
  private final KeywordSource keywords;
  private final QafdRetriever.Session retriever;
  private final AnswerGenerator generator;

  QafdAnswerer(QafdContext ctx, KeywordSource keywords, QafdRetriever.Session retriever, AnswerGenerator generator) {
    this.ctx = ctx;
    this.keywords = keywords;
    this.retriever = retriever;
    this.generator = generator;
  }

  @Override
  public Outcome answer(String question, Trace trace) {
    Extracted x = keywords.extract(question);
    QueryGraph qg = x.queryGraph() != null ? x.queryGraph() : keywordStar(x.keywords().low());
    trace.queryGraph(qg, i -> ctx.entityIds(qg, i));
    QafdRetriever.Result ret = retriever.retrieve(question, x.keywords(), x.queryGraph());
    GeneratedAnswer g = generator.generate(question, qg, ret.candidates());
    trace.metric("seed_nanos", ret.seedNanos());
    trace.metric("diffusion_nanos", ret.diffusionNanos());
    trace.metric("touched", ret.touched());
    trace.metric("pushes", ret.diffusion() == null ? 0 : ret.diffusion().pushes());
    trace.metric("support", ret.support().length);
    trace.metric("unconverged", ret.diffusion() != null && !ret.diffusion().converged() ? 1 : 0);
    return new Outcome(g, g.unable() ? AnswerStatus.UNABLE : ret.status(), ret.note());
  }

  /** The LLM's low-level keywords as a star around the unknown answer (what the query_graphs table shows). */
  static QueryGraph keywordStar(List<String> low) {
    QueryGraph.Builder b = QueryGraph.builder();
    int u = b.unknown(null);
    for (String k : low) {
      b.edge(b.entity(k), u, null);
    }
    return b.target(u).build();
  }
}
