/** The example's operations. `npm run codegen` turns each into a typed document in ./gql. */
import { graphql } from './gql';

export const TitleLookupQuery = graphql(`
  query TitleLookup($titleNumber: TitleNumber!) {
    title(titleNumber: $titleNumber) {
      titleNumber
      status
      right { description addresses { street town postcode } }
      plans { description paperSize }
    }
  }
`);

export const OrderDocumentMutation = graphql(`
  mutation OrderDocument($fas: FasNumber!, $input: OrderTitleDocumentInput!) {
    orderTitleDocument(fas: $fas, input: $input) {
      document { documentId titleNumber expiresAt downloadUrl }
      charges { productType fee }
      userErrors { code message field }
    }
  }
`);

export const OrderQuoteQuery = graphql(`
  query OrderQuote($fas: FasNumber!, $titleNumber: TitleNumber!) {
    chargeQuote(fas: $fas, titleNumber: $titleNumber, products: [TITLE_DATA_AND_PLANS]) {
      lines { alreadyChargedToday }
      expectedTotal
      withinLimits
    }
  }
`);

export const RegisterDayQuery = graphql(`
  query RegisterDay {
    spending { day }
  }
`);

export const DayPurchasesQuery = graphql(`
  query DayPurchases($day: Date!) {
    chargeRecords(day: $day) {
      status
      operation
      titleNumber
      charge { fee }
      caller
      callerName
    }
  }
`);
