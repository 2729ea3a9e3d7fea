package io.kgrag.core.srag.llm;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.ChatResult;
import io.kgrag.core.llm.InMemoryChatCache;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.srag.EntitySet;
import io.kgrag.core.srag.PropertyMatcher;
import io.kgrag.core.srag.SetGrounder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/** A tiny film graph for the SRAG LLM tests, and a scripted chat endpoint. */
final class FilmGraph {
  private FilmGraph() {}

  /** The films directed by Ridley Scott: the set most replies name. */
  static final EntitySet RIDLEY_FILMS = new EntitySet("films", 10, "Ridley Scott", "directed_by", true);

  /**
   * Five films directed by Ridley Scott (one also produced by him) and one by James Cameron, each with a
   * release year, genres, actors and a rating.
   */
  static KnowledgeGraph graph() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder()
        .entity(10, "Ridley Scott").entity(11, "James Cameron")
        .entity(20, "Drama").entity(21, "Horror").entity(22, "Science Fiction").entity(23, "War").entity(24, "Action")
        .entity(40, "Sigourney Weaver").entity(41, "Russell Crowe").entity(42, "Joaquin Phoenix").entity(43, "Josh Hartnett")
        .entity(44, "Matt Damon").entity(45, "Jessica Chastain").entity(46, "Noomi Rapace");
    film(b, 1, "Alien", 10, "1979", "8.5", new long[] {22, 21}, new long[] {40});
    film(b, 2, "Gladiator", 10, "2000", "8.5", new long[] {20, 24}, new long[] {41, 42});
    film(b, 3, "Black Hawk Down", 10, "2001", "7.7", new long[] {23, 20}, new long[] {43});
    film(b, 4, "The Martian", 10, "2015", "8.0", new long[] {22, 20}, new long[] {44, 45});
    film(b, 5, "Prometheus", 10, "2012", "7.0", new long[] {22, 21}, new long[] {46});
    film(b, 6, "Aliens", 11, "1986", "8.4", new long[] {22, 24}, new long[] {40});
    b.edge(4, "produced_by", 10);
    b.entity(12, "Hans Zimmer").edge(12, "works_with", 11); // no film reaches him
    return b.build();
  }

  private static void film(KnowledgeGraph.Builder b, long id, String title, long director, String year, String rating, long[] genres, long[] actors) {
    b.entity(id, title).entity(100 + id, year).entity(200 + id, rating);
    b.edge(id, "directed_by", director).edge(id, "release_year", 100 + id).edge(id, "rating", 200 + id);
    for (long g : genres) {
      b.edge(id, "has_genre", g);
    }
    for (long a : actors) {
      b.edge(id, "starred_actors", a);
    }
  }

  /** A grounder scoring by word overlap only (no embedder). */
  static SetGrounder grounder(KnowledgeGraph g) {
    return new SetGrounder(g, new Gazetteer(g), new PropertyMatcher(Map.of(), null));
  }

  /** A chat endpoint that records what it is sent and answers from a script, or fails. */
  static final class Script {
    final List<List<ChatMessage>> sent = new ArrayList<>();
    final Deque<String> replies = new ArrayDeque<>();
    RuntimeException failure;
    final CachingChatClient client = new CachingChatClient(messages -> {
      sent.add(messages);
      if (failure != null) {
        throw failure;
      }
      return new ChatResult(replies.remove(), "test-model", "stop", 100, 20);
    }, "test-model", 0, new InMemoryChatCache());

    Script reply(String... rs) {
      replies.addAll(List.of(rs));
      return this;
    }
  }
}
