import { describe, expect, it } from 'vitest';
import { normaliseSpeech } from '../../../src/common/speech-text';

const english = (text: string) => normaliseSpeech(text, 'en-IN');

describe('Indian English speech text', () => {
  it.each([
    ['0', 'zero'],
    ['13', 'thirteen'],
    ['42', 'forty-two'],
    ['101', 'one hundred one'],
    ['999', 'nine hundred ninety-nine'],
    ['1,000', 'one thousand'],
    ['1,25,000', 'one lakh twenty-five thousand'],
    ['125,000', 'one lakh twenty-five thousand'],
    ['10,00,000', 'ten lakh'],
    ['2,50,00,000', 'two crore fifty lakh'],
    ['12,34,56,789', 'twelve crore thirty-four lakh fifty-six thousand seven hundred eighty-nine'],
    ['0.5', 'zero point five'],
    ['-3', 'minus three'],
    ['007', 'zero zero seven'],
    ['9876543210', 'nine eight seven six five four three two one zero'],
    ['1,2,3', 'one, two, three'],
    ['10-20', 'ten-twenty'],
  ])('reads %s as %s', (written, said) => expect(english(written)).toBe(said));

  it.each([
    ['₹1,25,000', 'one lakh twenty-five thousand rupees'],
    ['₹1', 'one rupee'],
    ['Rs. 10.50', 'ten rupees and fifty paise'],
    ['Rs 99.5', 'ninety-nine rupees and fifty paise'],
    ['₹0.75', 'seventy-five paise'],
    ['INR 3 crore', 'three crore rupees'],
    ['₹2.5 lakh', 'two point five lakh rupees'],
    ['₹1.234', '₹one point two three four'],
  ])('reads the amount %s as %s', (written, said) => expect(english(written)).toBe(said));

  it.each([
    ['15/08/1947', 'fifteenth August nineteen forty-seven'],
    ['01.01.2000', 'first January two thousand'],
    ['02-10-1869', 'second October eighteen sixty-nine'],
    ['15 August 1947', 'fifteenth August nineteen forty-seven'],
    ['26th January, 1950', 'twenty-sixth January nineteen fifty'],
    ['August 15, 1947', 'August fifteenth nineteen forty-seven'],
    ['31 December', 'thirty-first December'],
    ['1 May 1905', 'first May nineteen oh five'],
    ['10:30', 'ten thirty'],
    ['10:00', "ten o'clock"],
    ['10:05 AM', 'ten oh five A M'],
    ['7:45 pm', 'seven forty-five P M'],
    ['12.5%', 'twelve point five percent'],
    ['100%', 'one hundred percent'],
    ['5 km', 'five kilometres'],
    ['1 km', 'one kilometre'],
    ['80 km/h', 'eighty kilometres per hour'],
    ['2 hrs', 'two hours'],
    ['Dr. Rao and Mr. Iyer', 'Doctor Rao and Mister Iyer'],
  ])('reads %s as %s', (written, said) => expect(english(written)).toBe(said));

  it('leaves what it cannot read safely as written', () => {
    expect(english('1,2345')).toBe('1,2345');
    expect(english('v1.2.3')).toBe('v1.2.3');
    expect(english('31/02/2020 or 3:2')).toBe('31/02/2020 or 3:2');
    expect(english('4G')).toBe('4G');
    expect(english('Dr.')).toBe('Dr.');
  });

  it('is for Indian English only: US and UK English are passed through', () => {
    expect(normaliseSpeech('₹1,25,000 on 15/08/1947', 'en-US')).toBe('₹1,25,000 on 15/08/1947');
    expect(normaliseSpeech('1,25,000', 'en-GB')).toBe('1,25,000');
  });
});
