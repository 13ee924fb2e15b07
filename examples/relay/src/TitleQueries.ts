/**
 * A Relay client of titlegraph: two queries that reach the same title (by `title` and by
 * `titles`), and a @refetchable fragment on Title, which Relay refetches through `node(id:)`.
 * `npx relay-compiler` (in this folder) writes __generated__/ and persisted-queries.json, which
 * titlegraph serves with PERSISTED_OPERATIONS_FILE; Relay then sends each operation's `doc_id`.
 * test/interop/relay.test.ts compiles this file and runs its operations with relay-runtime.
 */
import { graphql } from 'relay-runtime';

export const titleQuery = graphql`
  query TitleQueriesTitleQuery($titleNumber: TitleNumber!) {
    title(titleNumber: $titleNumber) {
      ...TitleQueries_title
    }
  }
`;

export const titlesQuery = graphql`
  query TitleQueriesTitlesQuery($titleNumbers: [TitleNumber!]!) {
    titles(titleNumbers: $titleNumbers) {
      ...TitleQueries_title
    }
  }
`;

export const titleFragment = graphql`
  fragment TitleQueries_title on Title @refetchable(queryName: "TitleQueriesTitleRefetchQuery") {
    id
    titleNumber
    status
  }
`;
