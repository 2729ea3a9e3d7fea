package io.kgrag.jobs.toy;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.method.MethodContext;
import io.kgrag.core.method.Outcome;
import io.kgrag.core.method.QuestionAnswerer;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.RankedAnswer;
import io.kgrag.jobs.api.AbstractRetrievalMethod;
import io.kgrag.jobs.api.MethodRun;
import io.kgrag.jobs.api.MethodSetup;
import io.kgrag.jobs.catalog.KgTable;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.Row;

/**
 * A sixth retrieval method that lives outside kgrag's sources, as a user's jar would: it uses only the API
 * ({@code io.kgrag.jobs.api}, the catalog, core's records) and is found through this test tree's own
 * {@code META-INF/services/io.kgrag.jobs.api.RetrievalMethod}. It answers with the neighbours of the longest
 * entity label that occurs in the question, its evidence the edge to each.
 */
public final class ToyMethod extends AbstractRetrievalMethod {
  /** Its settings: {@code spark.kgrag.toy.max-answers}. */
  public record ToyOptions(int maxAnswers) {
    public ToyOptions {
      if (maxAnswers < 1) {
        throw new IllegalArgumentException("must be at least 1, got " + maxAnswers);
      }
    }

    public static ToyOptions defaults() {
      return new ToyOptions(3);
    }
  }

  public ToyMethod() {
    super("toy", "Toy: the neighbours of the longest entity label in the question", List.of("ingest"), ToyOptions.class, Set.of());
  }

  @Override
  public MethodRun prepare(MethodSetup setup) {
    Map<Long, String> labels = new HashMap<>();
    for (Row r : setup.catalog().read(KgTable.ENTITIES).select("entity_id", "label").collectAsList()) {
      labels.put(r.getLong(0), r.getString(1));
    }
    Map<String, List<Hop>> out = new TreeMap<>();
    for (Row r : setup.catalog().read(KgTable.RELATIONS).select("src_id", "relation", "dst_id").orderBy(col("src_id"), col("relation"), col("dst_id")).collectAsList()) {
      long s = r.getLong(0);
      long d = r.getLong(2);
      EvidenceEdge e = new EvidenceEdge(s, labels.get(s), r.getString(1), d, labels.get(d));
      out.computeIfAbsent(e.srcLabel().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(new Hop(e, e.dstId(), e.dstLabel()));
      out.computeIfAbsent(e.dstLabel().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(new Hop(e, e.srcId(), e.srcLabel()));
    }
    ToyContext ctx = new ToyContext(out, setup.embedder(), setup.options(ToyOptions.class).maxAnswers());
    return MethodRun.of(ctx, List.of("label_chars"), List.of());
  }

  /** An edge of a node and the node at its other end. */
  record Hop(EvidenceEdge edge, long otherId, String otherLabel) implements Serializable {}

  /** The shipped context: the edges of every node, by its label in lower case. */
  record ToyContext(Map<String, List<Hop>> edges, EmbedderSpec embedder, int maxAnswers) implements MethodContext {
    @Override
    public QuestionAnswerer answerer(Embedder unusedEmbedder, CachingChatClient chat) {
      return (question, trace) -> {
        String q = question.toLowerCase(Locale.ROOT);
        String best = null;
        for (String label : edges.keySet()) {
          if (q.contains(label) && (best == null || label.length() > best.length())) {
            best = label;
          }
        }
        if (best == null) {
          throw new QaException(AnswerStatus.UNABLE, "no entity label of the graph occurs in the question");
        }
        Hop first = edges.get(best).get(0);
        long matched = first.edge().srcId() == first.otherId() ? first.edge().dstId() : first.edge().srcId();
        QueryGraph.Builder g = QueryGraph.builder();
        int mention = g.entity(best);
        int unknown = g.unknown("neighbour");
        QueryGraph graph = g.edge(mention, unknown, "related to").target(unknown).build();
        trace.queryGraph(graph, node -> node == mention ? new long[] {matched} : null);
        trace.metric("label_chars", best.length());
        List<Hop> hops = edges.get(best).subList(0, Math.min(maxAnswers, edges.get(best).size()));
        List<RankedAnswer> ranked = new ArrayList<>();
        List<EvidenceEdge> ev = new ArrayList<>();
        for (int i = 0; i < hops.size(); i++) {
          ranked.add(new RankedAnswer(hops.get(i).otherLabel(), hops.get(i).otherId(), 1.0 / (i + 1)));
          ev.add(hops.get(i).edge());
        }
        return new Outcome(new GeneratedAnswer(ranked.get(0).answer(), ranked, ev), AnswerStatus.EXACT, "neighbours of '" + best + "'");
      };
    }
  }
}
