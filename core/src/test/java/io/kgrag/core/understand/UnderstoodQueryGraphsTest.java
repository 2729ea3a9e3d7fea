package io.kgrag.core.understand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.embedded.Gazetteer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which query graph SG-RAG gets: the understanding's chain for a question about one entity, the star otherwise. */
class UnderstoodQueryGraphsTest {
  private final KnowledgeGraph g = UnderstandingFixture.movies();
  private final QueryGraph starGraph = QueryGraph.builder().build();
  private final UnderstoodQueryGraphs psi =
      new UnderstoodQueryGraphs(
          new QuestionUnderstanding(g, GraphSchema.of(g), new MentionLinker(g, new Gazetteer(g)), new EmbeddingCache(new UnderstandingFixture.StemWords(), 1000),
              new CanonicalVectors(), Map.of(), null, QuestionUnderstanding.Config.DEFAULT),
          star -> starGraph);

  @Test
  void aQuestionAboutOneEntityGetsItsChainWithTheRelationsNamed() {
    QueryGraph q = psi.extract("which films did Ann Actor star in");
    assertEquals(2, q.nodes().size());
    assertEquals("Ann Actor", q.node(0).label());
    assertEquals(1, q.target());
    assertEquals(1, q.edges().size());
    // the edge runs in the graph's direction: film starred_actors actor
    assertEquals(new QueryGraph.Edge(1, 0, "starred_actors"), q.edges().get(0));
  }

  @Test
  void twoConfidentMentionsGoToTheStar() {
    assertSame(starGraph, psi.extract("films with Dee Director and Cy Star"));
  }

  @Test
  void aWeakMentionThatSharesANeighbourWithTheTopicIsAConstraint() {
    // First Film stars Ann Actor and is a drama: "drama" reads as a constraint
    assertSame(starGraph, psi.extract("which films starring Ann Actor are drama"));
    // no film of Bob Player's is a comedy: "comedy" is not read as one, the question is a chain from Bob Player
    QueryGraph q = psi.extract("which comedy films did Bob Player star in");
    assertEquals("Bob Player", q.node(0).label());
    assertNull(q.node(q.target()).label());
  }
}
